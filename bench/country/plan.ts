/**
 * How many tiles a country has, and which of them carry a timetable.
 *
 * Tiles come in the catalogue's order of kinds, round after round. Streets first: tiles are added
 * while the next one brings the node count nearer its target (the count plus half the next tile's
 * stays within it). Then timetables: if every tile carrying its timetable still falls short of the
 * stop-time target, tiles are added the same way on stop times. Otherwise a share r = target /
 * (all the tiles' stop times) of the tiles keeps its timetable, the rest are streets only:
 *
 *   the j-th tile of kind k keeps it when  floor(a_k + (j+1)·r) > floor(a_k + j·r),  a_k = 1 − k/8 − ε
 *
 * so every kind keeps the same share, one tile in every 1/r of its own, the kinds' turns staggered by
 * an eighth of a round so that the kept tiles spread over the grid instead of coming in runs; the
 * first tile (rnv, kind 0) always keeps its timetable. At r = 1 every tile keeps it.
 */
import type { Targets } from './catalogue.js';

/** A tile's size: its extract's nodes and its timetable's stop times. */
export interface TileSize {
  nodes: number;
  stopTimes: number;
}

export interface PlannedTile {
  /** the tile's number, its grid cell in row-major order (grid.ts) and its ids' prefix (`t12:`) */
  index: number;
  /** its kind, in the catalogue's order */
  kind: number;
  /** whether it carries its kind's timetable (else: streets only) */
  timetable: boolean;
}

/** Keeps the first tile's phase off the integer, so that its first turn comes at once (and r = 1 keeps every tile). */
const PHASE_EPSILON = 1e-9;

/** The tiles of a country of `targets`, kinds taken in turn out of `kindCount`; `sizeOf` may load a kind's sources (it is asked once per kind). */
export async function planTiles(targets: Targets, kindCount: number, sizeOf: (kind: number) => Promise<TileSize>): Promise<PlannedTile[]> {
  const sizes = new Map<number, TileSize>();
  const size = async (kind: number) => {
    let s = sizes.get(kind);
    if (!s) sizes.set(kind, (s = await sizeOf(kind)));
    return s;
  };
  const kinds: number[] = [];
  let nodes = 0;
  let stopTimes = 0;
  const add = async () => {
    const kind = kinds.length % kindCount;
    kinds.push(kind);
    nodes += (await size(kind)).nodes;
    stopTimes += (await size(kind)).stopTimes;
  };
  // at least one tile, then while the next one brings the count nearer its target
  await add();
  while (nodes + (await size(kinds.length % kindCount)).nodes / 2 <= targets.nodes) await add();
  while (stopTimes + (await size(kinds.length % kindCount)).stopTimes / 2 <= targets.stopTimes) await add();
  const share = Math.min(1, targets.stopTimes / stopTimes);
  const seen = new Array<number>(kindCount).fill(0);
  return kinds.map((kind, index) => {
    const j = seen[kind]!++;
    const phase = 1 - kind / kindCount - PHASE_EPSILON;
    return { index, kind, timetable: Math.floor(phase + (j + 1) * share) > Math.floor(phase + j * share) };
  });
}
