/**
 * A coverage's point sets (places with opportunity counts, for accessibility and travel-time
 * matrices): read from the files its configuration names (bad rows reported with file and line
 * and skipped, like feed rows), then linked to the street network as stops are. The linked points
 * travel to the worker threads with the heat-map data; their ids and totals stay here, for the
 * answers and `/point_sets`.
 */
import { readPointSet } from '../analysis/point-set-reader.js';
import type { LoadReport } from '../gtfs/load-report.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { linkPointRange, unlinkedPoints, type LinkedPoints } from '../model/linked-points.js';
import { Layer } from '../model/street-layers.js';
import { LINK_RADIUS_M, type StreetGraph } from '../model/street-graph.js';
import type { PointSetSource } from '../model/point-set.js';

/** What the main thread keeps of a point set. */
export interface PointSetInfo {
  name: string;
  /** the file it was read from (its base name) */
  file: string;
  /** per point, in the order of `LinkedPoints` */
  ids: string[];
  /** the opportunity columns and their totals over the kept points */
  columns: { name: string; total: number }[];
  /** points with no walkable street within the link radius: never reached */
  unlinked: number;
}

export interface PointSets {
  linked: LinkedPoints[];
  info: PointSetInfo[];
}

/** Points linked between two turns of the event loop (a few milliseconds' work). */
const POINTS_PER_TURN = 2000;

export async function loadPointSets(configs: readonly PointSetSource[], graph: StreetGraph, report: LoadReport): Promise<PointSets> {
  const sets: PointSets = { linked: [], info: [] };
  for (const config of configs) {
    const data = await readPointSet(config, report);
    const linked = unlinkedPoints(config.name, data.lon, data.lat, data.columns);
    // up to a million points on three layers: in slices, the coverage's requests answered between
    for (let from = 0; from < data.ids.length; from += POINTS_PER_TURN) {
      linkPointRange(graph, linked, from, Math.min(data.ids.length, from + POINTS_PER_TURN));
      await nextTurn();
    }
    const unlinked = linked.links.unsnapped[Layer.Walk]!;
    const file = config.file.split(/[\\/]/).pop()!;
    report.note(`${file}: point set ${config.name}, ${data.ids.length} points, ${data.columns.length} opportunity columns (${data.columns.map((c) => c.name).join(', ')})`);
    if (unlinked > 0) report.note(`${file}: ${unlinked} of ${data.ids.length} points of ${config.name} are more than ${LINK_RADIUS_M} m from a walkable street: never reached`);
    sets.linked.push(linked);
    sets.info.push({ name: config.name, file, ids: data.ids, columns: data.columns.map((c) => ({ name: c.name, total: c.total })), unlinked });
  }
  return sets;
}
