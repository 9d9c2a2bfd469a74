/**
 * A point set as the searches read it (R5's freeform point set): places linked to each street layer
 * at load, as stops are (stop-snaps.ts: the nearest street of the layer within LINK_RADIUS_M, the
 * off-street offset walked), with their opportunity counts. Typed arrays on shared memory: the
 * worker threads value the points of a set for accessibility and travel-time matrices. The ids,
 * which only the answers name, stay on the main thread (service/point-sets.ts).
 */
import { emptySnaps, snapRange, type StopSnaps } from './stop-snaps.js';
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

/** The points of a set, not linked yet: `linkPointRange` links them, a slice at a time. */
export function unlinkedPoints(name: string, lon: Float64Array, lat: Float64Array, columns: { name: string; values: Float64Array }[]): LinkedPoints {
  return {
    name,
    lon: sharedCopy(Float64Array, lon),
    lat: sharedCopy(Float64Array, lat),
    links: emptySnaps(lon.length),
    columns: columns.map((c) => ({ name: c.name, values: sharedCopy(Float64Array, c.values) })),
  };
}

/** Link the points [from, to) of a set to `graph`'s layers. */
export function linkPointRange(graph: StreetGraph, points: LinkedPoints, from: number, to: number): void {
  snapRange(graph, points.lon, points.lat, points.links, from, to);
}

/** How many points a set holds. */
export function pointCount(points: LinkedPoints): number {
  return points.lon.length;
}
