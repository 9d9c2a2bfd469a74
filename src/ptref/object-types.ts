/**
 * The object types of the public-transport referential, one descriptor per type: its filter
 * caption, its collection name in URLs (`/lines/L1/trips` → caption `line`), the count, ids and
 * names of its objects in a timetable, whether they carry external codes, and how they link to
 * trips and to the objects they group. The referential (referential.ts) builds its indexes and
 * answers from this table.
 *
 * Some types are the same objects under another caption: `network` and `company` are the
 * agencies, `dataset` and `contributor` the feeds, `vehicle_journey` the trips (with an id prefix).
 * Also here: the two orders in which the type of an id of forbidden_uris[] (or allowed_id[]) is
 * looked up, the PT referential's and the routing's.
 */
import type { Timetable } from '../model/timetable.js';

/** The captions of the filter language: the types, each with its descriptor below. */
export const CAPTIONS = [
  'validity_pattern',
  'line',
  'line_group',
  'journey_pattern',
  'vehicle_journey',
  'stop_point',
  'stop_area',
  'network',
  'physical_mode',
  'commercial_mode',
  'connection',
  'journey_pattern_point',
  'company',
  'route',
  'poi',
  'poi_type',
  'contributor',
  'calendar',
  'trip',
  'disruption',
  'dataset',
  'access_point',
] as const;

export type Caption = (typeof CAPTIONS)[number];

const CAPTION_SET: ReadonlySet<string> = new Set(CAPTIONS);

export function isCaption(s: string): s is Caption {
  return CAPTION_SET.has(s);
}

/** How the objects of a type link to trips: what `toTrips` and `fromTrips` of the referential follow. */
export type TripLink =
  /** the objects are the trips themselves */
  | { readonly kind: 'is_trip' }
  /** each trip has exactly one (its line, its route…): `ofTrip` gives its index */
  | { readonly kind: 'one_per_trip'; readonly ofTrip: (tt: Timetable, trip: number) => number }
  /** a trip has the stops of its journey pattern (stop points) */
  | { readonly kind: 'pattern_stops' }
  /** an object has the trips of its children (a stop area, those of its stop points) */
  | { readonly kind: 'through_children' }
  /** none: our data never has objects of the type */
  | { readonly kind: 'none' };

/**
 * The objects of another type that each object groups, one parent per child: a stop area's stop
 * points, a line's routes, a network's lines. The referential converts along this link directly,
 * both ways, instead of through trips.
 */
export interface Children {
  readonly type: Caption;
  readonly parentOf: (tt: Timetable, child: number) => number;
}

/** A type as the table below gives it: what it leaves out takes the defaults of ObjectType. */
interface ObjectTypeSpec {
  /** Collection name in URLs (`lines`). */
  readonly collection: string;
  /** Number of objects of the type in a timetable. */
  readonly count: (tt: Timetable) => number;
  /** Id of object `i` in the feed (before `idPrefix`). */
  readonly sourceId: (tt: Timetable, i: number) => string;
  /** What our ids put before the feed's id (`vehicle_journey:` + the trip id). */
  readonly idPrefix?: string;
  /** Name of object `i`; absent: its id. */
  readonly name?: (tt: Timetable, i: number) => string;
  readonly children?: Children;
  readonly trips: TripLink;
  /** Its objects carry external codes, the `source` code being their feed id (`has_code`, `has_code_type`). */
  readonly codes: boolean;
}

/**
 * A type's descriptor: every field of ObjectTypeSpec present ('' for no prefix, the id for no
 * name, null for no children) and in one order, so that all descriptors share one shape and the
 * referential's reads of them stay fast (one shape per property read, not twenty).
 */
export interface ObjectType {
  readonly collection: string;
  readonly count: (tt: Timetable) => number;
  readonly sourceId: (tt: Timetable, i: number) => string;
  readonly idPrefix: string;
  readonly name: (tt: Timetable, i: number) => string;
  readonly children: Children | null;
  readonly trips: TripLink;
  readonly codes: boolean;
}

/** The descriptor of a spec (keeping its collection name as a literal type). */
function describe<C extends string>(spec: ObjectTypeSpec & { readonly collection: C }): ObjectType & { readonly collection: C } {
  const { sourceId } = spec;
  const idPrefix = spec.idPrefix ?? '';
  return {
    collection: spec.collection,
    count: spec.count,
    sourceId,
    idPrefix,
    name: spec.name ?? ((tt, i) => idPrefix + sourceId(tt, i)),
    children: spec.children ?? null,
    trips: spec.trips,
    codes: spec.codes,
  };
}

/** The parts of a spec that say what the objects are, shared by the captions of the same objects. */
type Objects = Omit<ObjectTypeSpec, 'collection' | 'idPrefix'>;

const oneEach = (ofTrip: (tt: Timetable, trip: number) => number): TripLink => ({ kind: 'one_per_trip', ofTrip });

/** Objects held as a list of records with an id and a name: their count, ids and names. */
const listed = (list: (tt: Timetable) => readonly { id: string; name: string }[]) => ({
  count: (tt: Timetable) => list(tt).length,
  sourceId: (tt: Timetable, i: number) => list(tt)[i]!.id,
  name: (tt: Timetable, i: number) => list(tt)[i]!.name,
});

const TRIPS: Objects = {
  count: (tt) => tt.trips.ids.length,
  sourceId: (tt, i) => tt.trips.ids[i]!,
  name: (tt, i) => tt.trips.names[i]!,
  trips: { kind: 'is_trip' },
  codes: true,
};

// network and company share their trip link and children: the referential groups them once
const AGENCIES: Objects = {
  ...listed((tt) => tt.agencies),
  children: { type: 'line', parentOf: (tt, l) => tt.lines[l]!.agency },
  trips: oneEach((tt, t) => tt.trips.agency[t]!),
  codes: true,
};

const FEEDS: Objects = {
  count: (tt) => tt.feeds.length,
  sourceId: (tt, i) => tt.feeds[i]!.key,
  name: (tt, i) => tt.feeds[i]!.publisherName || tt.feeds[i]!.key,
  trips: oneEach((tt, t) => tt.trips.feed[t]!),
  codes: false,
};

/** Types the filter language names but our data never has (POIs, calendars…). */
const NONE: Objects = { count: () => 0, sourceId: () => '', trips: { kind: 'none' }, codes: false };

const DESCRIPTORS = {
  validity_pattern: describe({
    collection: 'validity_patterns',
    count: (tt) => tt.services.ids.length,
    sourceId: (tt, i) => tt.services.ids[i]!,
    trips: oneEach((tt, t) => tt.trips.service[t]!),
    codes: false,
  }),
  line: describe({
    collection: 'lines',
    ...listed((tt) => tt.lines),
    children: { type: 'route', parentOf: (tt, r) => tt.routes[r]!.line },
    trips: oneEach((tt, t) => tt.trips.line[t]!),
    codes: true,
  }),
  line_group: describe({ collection: 'line_groups', ...NONE }),
  journey_pattern: describe({
    collection: 'journey_patterns',
    // patterns have no id of their own: their index
    idPrefix: 'journey_pattern:',
    count: (tt) => tt.patterns.stopOffset.length - 1,
    sourceId: (_, i) => String(i),
    trips: oneEach((tt, t) => tt.trips.pattern[t]!),
    codes: false,
  }),
  vehicle_journey: describe({ collection: 'vehicle_journeys', idPrefix: 'vehicle_journey:', ...TRIPS }),
  stop_point: describe({
    collection: 'stop_points',
    count: (tt) => tt.stopPoints.ids.length,
    sourceId: (tt, i) => tt.stopPoints.ids[i]!,
    name: (tt, i) => tt.stopPoints.names[i]!,
    trips: { kind: 'pattern_stops' },
    codes: true,
  }),
  stop_area: describe({
    collection: 'stop_areas',
    ...listed((tt) => tt.stopAreas),
    children: { type: 'stop_point', parentOf: (tt, s) => tt.stopPoints.area[s]! },
    trips: { kind: 'through_children' },
    codes: true,
  }),
  network: describe({ collection: 'networks', ...AGENCIES }),
  physical_mode: describe({
    collection: 'physical_modes',
    ...listed((tt) => tt.physicalModes),
    trips: oneEach((tt, t) => tt.lines[tt.trips.line[t]!]!.physicalMode),
    codes: false,
  }),
  commercial_mode: describe({
    collection: 'commercial_modes',
    ...listed((tt) => tt.commercialModes),
    trips: oneEach((tt, t) => tt.lines[tt.trips.line[t]!]!.commercialMode),
    codes: false,
  }),
  connection: describe({ collection: 'connections', ...NONE }),
  journey_pattern_point: describe({ collection: 'journey_pattern_points', ...NONE }),
  company: describe({ collection: 'companies', ...AGENCIES }),
  route: describe({
    collection: 'routes',
    ...listed((tt) => tt.routes),
    trips: oneEach((tt, t) => tt.trips.route[t]!),
    codes: true,
  }),
  poi: describe({ collection: 'pois', ...NONE }),
  poi_type: describe({ collection: 'poi_types', ...NONE }),
  contributor: describe({ collection: 'contributors', ...FEEDS }),
  calendar: describe({ collection: 'calendars', ...NONE }),
  trip: describe({ collection: 'trips', ...TRIPS }),
  // disruptions are not referential objects: the filter evaluator gives the trips they impact
  disruption: describe({ collection: 'disruptions', ...NONE }),
  dataset: describe({ collection: 'datasets', ...FEEDS }),
  access_point: describe({ collection: 'access_points', ...NONE }),
} satisfies { readonly [T in Caption]: ObjectType };

/** The descriptor of each type. */
export const OBJECT_TYPES: { readonly [T in Caption]: ObjectType } = DESCRIPTORS;

/** A type's collection name, as a literal type (`'line'` → `'lines'`). */
export type CollectionName<T extends Caption = Caption> = (typeof DESCRIPTORS)[T]['collection'];

export const collectionOf = <T extends Caption>(type: T): CollectionName<T> => DESCRIPTORS[type].collection;

/** Trips and vehicle journeys: the same objects. */
export const isTripLike = (type: Caption): boolean => OBJECT_TYPES[type].trips.kind === 'is_trip';

/** Collection name (URL segment) → caption, for the `{uri}` part of a path. */
export const COLLECTION_CAPTIONS: Readonly<Record<string, Caption>> = Object.fromEntries(CAPTIONS.map((type) => [collectionOf(type), type]));

/** Collection names that take a coordinate value (`coord/2.3;48.8`). */
export const COORD_COLLECTIONS: ReadonlySet<string> = new Set(['coord', 'coords', 'addresses']);

/**
 * The types an id of forbidden_uris[] may name in a PT-referential query, in the order they are
 * looked up: the first with an object of this id names it (Referential.identify).
 */
export const PTREF_ID_TYPES: readonly Caption[] = [
  'line',
  'line_group',
  'vehicle_journey',
  'stop_point',
  'stop_area',
  'network',
  'physical_mode',
  'commercial_mode',
  'company',
  'route',
  'contributor',
  'calendar',
  'dataset',
  'validity_pattern',
  'poi',
  'poi_type',
  'trip',
];

/**
 * The types an id of a heat map's forbidden_uris[] or allowed_id[] may name, in the order they are
 * looked up. They differ from PTREF_ID_TYPES on purpose: the routing masks stop points and trips,
 * not any type, so only the types it can mask are named (stop points and stop areas, which mask
 * stop points, tried first; then the types whose trips it masks), and the ids of the others
 * (datasets, validity patterns…) are ignored.
 */
export const TRANSIT_MASK_ID_TYPES: readonly Caption[] = [
  'stop_point',
  'stop_area',
  'line',
  'route',
  'network',
  'physical_mode',
  'commercial_mode',
  'company',
  'vehicle_journey',
  'trip',
];
