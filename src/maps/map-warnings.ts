/**
 * The warnings of an answer, in Navitia's `warnings` list (`[{"id", "message"}]`): each id and
 * wording once. They say why a map is empty or partial, and what of the request was ignored; the
 * answer stays a 200. The API finds most of them before the map is computed (api/heat-maps/
 * map-checks.ts, the parameters); the one only the computation knows, nothing reached, is added
 * where the answer is written (heat-map-render.ts), which is why the catalogue sits in this layer.
 * docs/api.md, "Warnings", lists them; a test holds the two together through `warningCatalogue`.
 */
export interface Warning {
  id: string;
  message: string;
}

const warning = (id: string, message: string): Warning => ({ id, message });

export const WARNINGS = {
  /** a query parameter the endpoint does not take (Navitia ignores them silently; so do we, but say so) */
  unknownParameter: (name: string) => warning('unknown_parameter', `unknown parameter ${name}: ignored`),
  /** a band boundary outside [min_duration, max_duration], which Navitia drops */
  boundaryAboveMax: (value: string, max: string) => warning('boundary_duration_dropped', `boundary_duration[]=${value} is above max_duration=${max}: dropped`),
  boundaryBelowMin: (value: string, min: string) => warning('boundary_duration_dropped', `boundary_duration[]=${value} is below min_duration=${min}: dropped`),
  /** the centre is farther from every street than a place links to one */
  centreOffStreets: (distance: string, linkRadiusM: string) =>
    warning('centre_off_street_network', `the centre is ${distance} from the nearest street; a place farther than ${linkRadiusM} m from the streets reaches none of them`),
  /** the centre lies outside the area of the coverage's stops */
  centreOutsideData: (lonLat: string) => warning('centre_outside_data', `the centre ${lonLat} lies outside the coverage's data`),
  centreOutsideDataSwapped: (lonLat: string, swapped: string) =>
    warning('centre_outside_data', `the centre ${lonLat} lies outside the coverage's data; ${swapped} lies inside: longitude comes first, then latitude`),
  /** no trip runs in the map's window */
  noService: (from: string, to: string, firstDay: string, lastDay: string) =>
    warning('no_service', `no trip runs between ${from} and ${to}; the production period is ${firstDay} to ${lastDay}`),
  /** trips of some feeds run in the map's window, none of this one */
  feedNoService: (feed: string, from: string, to: string, firstDay: string, lastDay: string) =>
    warning('no_service_in_feed', `no trip of the feed ${feed} runs between ${from} and ${to}: the map leaves it out; its trips run from ${firstDay} to ${lastDay}`),
  /** stops reached by a vehicle that value no cell, being off the street network */
  stopsOffStreets: (unlinked: string, reached: string, linkRadiusM: string) =>
    warning('stops_off_street_network', `${unlinked} of the ${reached} stops reached by public transport are farther than ${linkRadiusM} m from a street: the places around them have no value`),
  /** no cell of the grid has a value */
  nothingReached: (maxDuration: string) => warning('nothing_reached', `no place is reached within max_duration=${maxDuration}`),
} as const;

/** Every warning of the catalogue (X, Y, Z, W, V for the values a message quotes), as docs/api.md lists them. */
export function warningCatalogue(): Warning[] {
  const placeholders = ['X', 'Y', 'Z', 'W', 'V'];
  return Object.values(WARNINGS).map((make) => (make as (...values: string[]) => Warning)(...placeholders.slice(0, make.length)));
}

/** The warnings as JSON text. */
export function warningsJson(warnings: readonly Warning[]): string {
  return warnings.length === 0 ? '[]' : JSON.stringify(warnings);
}
