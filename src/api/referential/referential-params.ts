/**
 * Query parameters of the PT-referential collections (`/lines`, `/stop_areas`…) and of the places
 * endpoints. A collection takes the trips' table (one parameter described once), its help texts
 * speaking of the collection's objects.
 */
import { missingParameter } from '../errors.js';
import { depthParam, disableGeojsonParam, pageCount, START_PAGE } from '../params.js';
import type { Limits } from '../../service/limits.js';
import { collectionOf, type CollectionName } from '../../ptref/object-types.js';
import { tripsParams } from '../trips/trips-params.js';
import { CURRENT_DATETIME, type ParamSpec } from '../../queries/param-table.js';

/** The types served as collections besides trips, in the order the coverage lists them (answers depend on it). */
const SERVED_TYPES = ['stop_point', 'route', 'network', 'commercial_mode', 'physical_mode', 'company', 'stop_area', 'line', 'vehicle_journey'] as const;
export type ReferentialCollection = CollectionName<(typeof SERVED_TYPES)[number]>;
/** Their collection names (`stop_points`…), in the same order. */
export const REFERENTIAL_COLLECTIONS: readonly ReferentialCollection[] = SERVED_TYPES.map(collectionOf);

const SERVED: ReadonlySet<string> = new Set(REFERENTIAL_COLLECTIONS);
export const isReferentialCollection = (name: string): name is ReferentialCollection => SERVED.has(name);

/** Help texts that name the objects (`noun`: "lines", "stop areas"…). */
const DESCRIPTIONS: Record<string, (noun: string, limits: Limits) => string> = {
  count: (noun, limits) => `Number of ${noun} per page (at most ${limits.maxCount}).`,
  depth: (noun) => `Level of detail of the returned ${noun}, 0 to 3: each object embeds its related objects one level lower.`,
  forbidden_uris: (noun) => `Ids of objects (lines, stop points, modes, networks…) whose ${noun} are left out.`,
  external_code: (noun) => `Only the ${noun} with this external code (the source id; for vehicle journeys, the GTFS trip_id or trip_short_name).`,
  headsign: (noun) => `Only the ${noun} of the vehicle journeys with this headsign, exactly.`,
  odt_level: () => 'On-demand transport level (lines and vehicle journeys only; another value than all on another collection is refused): scheduled, with_stops, zonal, or all.',
  since: () => 'Vehicle journeys only: those with a run whose first departure is at or after this time (local time of the coverage unless an offset is given); ignored on the other collections.',
  until: () => 'Vehicle journeys only: those with a run whose first departure is at or before this time; ignored on the other collections.',
  tags: (noun) => `Only the ${noun} of the vehicle journeys impacted by a disruption that carries one of these tags.`,
};

/** The table of a collection's lists (`withFilter`) or of one of its objects. */
export function collectionParams(limits: Limits, collection: ReferentialCollection, withFilter: boolean): ReturnType<typeof tripsParams> {
  const noun = collection.replace(/_/g, ' ');
  const specs: ParamSpec[] = tripsParams(limits, withFilter).map((spec) => {
    const describe = DESCRIPTIONS[spec.name];
    return describe ? { ...spec, description: describe(noun, limits) } : spec;
  });
  // the same names, kinds and defaults as the trips' table: only the help texts differ
  return specs as unknown as ReturnType<typeof tripsParams>;
}

/** The place types Navitia knows; those our data has none of are accepted and give nothing. */
const PLACE_TYPES = ['stop_area', 'stop_point', 'address', 'poi', 'administrative_region'] as const;

const Q_HELP = 'The text to search: a name or the start of one; accents, case and punctuation do not matter.';

const DEPTH = depthParam('Level of detail of the embedded stop areas and stop points, 0 to 3.');
const DISABLE_GEOJSON = disableGeojsonParam('Accepted for Navitia clients; places carry no geometry.');

/** `/places`: Navitia's parameters (its default types: stop areas, addresses, POIs, administrative regions). */
export function placesParams(limits: Limits) {
  return [
    { name: 'q', kind: 'string', required: { error: () => missingParameter('q', Q_HELP) }, description: Q_HELP },
    {
      name: 'type',
      kind: 'enum',
      array: true,
      values: PLACE_TYPES,
      description: 'Types of the places searched; by default stop_area, address, poi and administrative_region (only stop areas and stop points exist here).',
    },
    pageCount(limits.maxCount, 10, `Number of places returned (at most ${limits.maxCount}).`),
    DEPTH,
    DISABLE_GEOJSON,
    CURRENT_DATETIME,
  ] as const satisfies readonly ParamSpec[];
}

/** `/coords/{lon};{lat}/places_nearby`: Navitia's parameters (its default types: stop areas, stop points, POIs). */
export function placesNearbyParams(limits: Limits) {
  return [
    { name: 'type', kind: 'enum', array: true, values: PLACE_TYPES, description: 'Types of the places returned; by default stop_area, stop_point and poi.' },
    { name: 'distance', kind: 'int', default: 500, min: 0, description: 'Radius of the search around the coordinate, in metres.' },
    pageCount(limits.maxCount, 10, `Number of places per page (at most ${limits.maxCount}).`),
    START_PAGE,
    DEPTH,
    DISABLE_GEOJSON,
    CURRENT_DATETIME,
  ] as const satisfies readonly ParamSpec[];
}
