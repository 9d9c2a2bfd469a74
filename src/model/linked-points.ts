/**
 * A point set as the searches read it (R5's freeform point set): places linked to each street layer
 * at load, as stops are (stop-snaps.ts: the nearest street of the layer within LINK_RADIUS_M, the
 * off-street offset walked), with their opportunity counts. Typed arrays on shared memory: the
 * worker threads value the points of a set for accessibility and travel-time matrices. The ids,
 * which only the answers name, stay on the main thread (service/point-sets.ts).
 */
import { snapStops, type StopSnaps } from './stop-snaps.js';
import { sharedCopy } from './shared-arrays.js';
import type { StreetGraph } from './street-graph.js';

export interface LinkedPoints {
  name: string;
  lon: Float64Array;
  lat: Float64Array;
  /** per layer, where each point links (edge -1: no street within the link radius) */
  links: StopSnaps;
  /** the opportunity columns, in the file's order */
  columns: { name: string; values: Float64Array }[];
}

/** The points of a set linked to `graph`'s layers. */
export function linkPoints(graph: StreetGraph, name: string, lon: Float64Array, lat: Float64Array, columns: { name: string; values: Float64Array }[]): LinkedPoints {
  return {
    name,
    lon: sharedCopy(Float64Array, lon),
    lat: sharedCopy(Float64Array, lat),
    links: snapStops(graph, lon, lat),
    columns: columns.map((c) => ({ name: c.name, values: sharedCopy(Float64Array, c.values) })),
  };
}

/** How many points a set holds. */
export function pointCount(points: LinkedPoints): number {
  return points.lon.length;
}
