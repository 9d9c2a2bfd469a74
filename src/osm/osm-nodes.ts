/**
 * The nodes of an OpenStreetMap reading, found by id. Two ways to keep them:
 *
 * - `AllNodes`: every node read, in file order, and an index sorted by id made at the end. For a
 *   reading in one pass (XML, or a PBF read for its basemap too), where nodes come before the ways
 *   that name them.
 * - `NeededNodes`: a reading in two passes (a street PBF): the ways first, then only the nodes they
 *   name, each in its place in the sorted ids of those nodes. A country's file has 100 M nodes:
 *   kept all, with a growing array's spare room and then a sorted index beside them, they held about
 *   three times what the nodes the streets use need.
 *
 * Either way a node is a slot, and the first node read with an id is the one kept.
 */
import { Growable } from '../model/growable.js';

/** The nodes kept, by slot: their ids and coordinates, and the slot of an id. */
export interface NodeTable {
  /** slots: ids[s], lon[s], lat[s] for s below `slots` */
  readonly slots: number;
  readonly ids: Float64Array;
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  /** The slot of node `id`, -1 when the reading has no such node. */
  find(id: number): number;
}

/** Every node read, in the order read. */
export class AllNodes {
  private readonly id = new Growable(Float64Array, 1 << 16);
  private readonly lon = new Growable(Float64Array, 1 << 16);
  private readonly lat = new Growable(Float64Array, 1 << 16);

  get read(): number {
    return this.id.length;
  }

  node(id: number, lon: number, lat: number): void {
    this.id.push(id);
    this.lon.push(lon);
    this.lat.push(lat);
  }

  table(): NodeTable {
    const ids = this.id.data;
    const index = new SortedIds(ids, this.id.length);
    return { slots: this.id.length, ids, lon: this.lon.data, lat: this.lat.data, find: (id) => index.find(id) };
  }
}

/** Node ids sorted once, to find a slot by id with a binary search. */
class SortedIds {
  /** slots sorted by id (a stable order for duplicate ids: the first one wins) */
  private readonly order: Uint32Array;
  private readonly sortedIds: Float64Array;

  constructor(ids: Float64Array, n: number) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    let sorted = true;
    for (let i = 1; i < n; i++) if (ids[i]! <= ids[i - 1]!) sorted = false;
    if (!sorted) order.sort((a, b) => ids[a]! - ids[b]! || a - b);
    const sortedIds = new Float64Array(n);
    for (let i = 0; i < n; i++) sortedIds[i] = ids[order[i]!]!;
    this.order = order;
    this.sortedIds = sortedIds;
  }

  /** The slot of node `id` (the first one read, when the id came again), -1 when absent. */
  find(id: number): number {
    const k = lowerBound(this.sortedIds, id);
    return k < this.sortedIds.length && this.sortedIds[k] === id ? this.order[k]! : -1;
  }
}

/** The first index of sorted `values` whose value is not below `v` (their length when none). */
function lowerBound(values: Float64Array, v: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The nodes some ways name, read in a pass after the ways: a slot per distinct id named, in id order. */
export class NeededNodes implements NodeTable {
  readonly ids: Float64Array;
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  /** 1 once the slot's node was read: a named node the file lacks stays 0, and is not found */
  private readonly seen: Uint8Array;
  /** nodes read, needed or not */
  read = 0;
  /** the slot after the last node found: files sorted by id are read with one comparison a node */
  private next = 0;

  /** The nodes named by `refs` (node ids, repeated, in any order), each group of the first `lengths[k]` of `refs[k]`. */
  constructor(refs: readonly Float64Array[], lengths: readonly number[]) {
    this.ids = distinctSorted(refs, lengths);
    this.lon = new Float64Array(this.ids.length);
    this.lat = new Float64Array(this.ids.length);
    this.seen = new Uint8Array(this.ids.length);
  }

  get slots(): number {
    return this.ids.length;
  }

  node(id: number, lon: number, lat: number): void {
    this.read++;
    const ids = this.ids;
    const slot = this.next < ids.length && ids[this.next] === id ? this.next : this.slotOf(id);
    if (slot < 0) return;
    this.next = slot + 1;
    if (this.seen[slot]) return;
    this.seen[slot] = 1;
    this.lon[slot] = lon;
    this.lat[slot] = lat;
  }

  find(id: number): number {
    const slot = this.slotOf(id);
    return slot >= 0 && this.seen[slot] ? slot : -1;
  }

  /** The slot of a named id, -1 when no way names it. */
  private slotOf(id: number): number {
    const k = lowerBound(this.ids, id);
    return k < this.ids.length && this.ids[k] === id ? k : -1;
  }
}

/** The distinct values of the groups, sorted. */
function distinctSorted(groups: readonly Float64Array[], lengths: readonly number[]): Float64Array {
  let total = 0;
  for (const n of lengths) total += n;
  const all = new Float64Array(total);
  let at = 0;
  groups.forEach((g, k) => {
    all.set(g.subarray(0, lengths[k]), at);
    at += lengths[k]!;
  });
  all.sort();
  let distinct = 0;
  for (let i = 0; i < total; i++) if (i === 0 || all[i] !== all[distinct - 1]) all[distinct++] = all[i]!;
  return all.slice(0, distinct);
}
