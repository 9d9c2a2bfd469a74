/**
 * The autocomplete index of `/places`: the folded names (util/fold-text.ts) of every stop area,
 * then every stop point (GTFS-Flex zones left out), in one string, each name after a newline.
 * A search is `indexOf` over that string; a hit's entry is found by binary search over the entries'
 * start offsets. Nothing per request but the result arrays of `count` items.
 *
 * Ranking: exact name (quality 100) > name prefix (90) > word prefix (80) > substring (70); then
 * stop areas before stop points, then the shorter name, then the id (a precomputed tie order).
 *
 * Built lazily once per referential (so once per data generation: the realtime generations share
 * their referential) and cached on it.
 */
import { foldText } from '../util/fold-text.js';
import type { Referential } from './referential.js';

/** The quality of each rank: exact, name prefix, word prefix, substring. */
export const PLACE_QUALITIES = [100, 90, 80, 70] as const;

export interface PlaceHits {
  /** entry e: stop area e when e < areaCount, else stop point e - areaCount; best first */
  entries: Uint32Array;
  /** rank of each entry (an index of PLACE_QUALITIES) */
  ranks: Uint8Array;
}

const cache = new WeakMap<Referential, PlacesIndex>();

/** The index of a referential, built on first use. */
export function placesIndexOf(ref: Referential): PlacesIndex {
  let index = cache.get(ref);
  if (!index) cache.set(ref, (index = new PlacesIndex(ref)));
  return index;
}

export class PlacesIndex {
  readonly areaCount: number;
  /** entries' folded names, each after a '\n' */
  private readonly text: string;
  /** offset in `text` of each entry's first character (ascending) */
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  /** position of each entry in the tie order (type, name length, id) */
  private readonly tie: Uint32Array;
  private readonly isArea: Uint8Array;

  constructor(ref: Referential) {
    const tt = ref.tt;
    const names: string[] = [];
    const ids: string[] = [];
    const rawLengths: number[] = [];
    for (const a of tt.stopAreas) {
      names.push(foldText(a.name));
      ids.push(a.id);
      rawLengths.push(a.name.length);
    }
    this.areaCount = names.length;
    // stop points are entries areaCount + s: zones keep an empty name, which nothing matches
    for (let s = 0; s < tt.stopPoints.ids.length; s++) {
      names.push(tt.stopPoints.isZone[s] ? '' : foldText(tt.stopPoints.names[s]!));
      ids.push(tt.stopPoints.ids[s]!);
      rawLengths.push(tt.stopPoints.names[s]!.length);
    }
    const n = names.length;
    this.starts = new Int32Array(n);
    this.lengths = new Int32Array(n);
    this.isArea = new Uint8Array(n);
    let offset = 0;
    for (let e = 0; e < n; e++) {
      offset += 1; // the '\n' before each name
      this.starts[e] = offset;
      this.lengths[e] = names[e]!.length;
      this.isArea[e] = e < this.areaCount ? 1 : 0;
      offset += names[e]!.length;
    }
    this.text = names.map((name) => `\n${name}`).join('');
    const order = Array.from({ length: n }, (_, e) => e);
    order.sort((a, b) => this.isArea[b]! - this.isArea[a]! || rawLengths[a]! - rawLengths[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
    this.tie = new Uint32Array(n);
    order.forEach((e, k) => (this.tie[e] = k));
  }

  /** The best `count` entries matching `q`, of the types asked. */
  search(q: string, areas: boolean, points: boolean, count: number): PlaceHits {
    const folded = foldText(q);
    const n = this.starts.length;
    // the best `count` keys (rank × n + tie), ascending, and their entries
    const keys = new Float64Array(Math.max(0, count));
    const entries = new Uint32Array(Math.max(0, count));
    let size = 0;
    if (folded === '' || count <= 0 || (!areas && !points)) return { entries: entries.subarray(0, 0), ranks: new Uint8Array(0) };
    const text = this.text;
    let from = 0;
    for (;;) {
      const pos = text.indexOf(folded, from);
      if (pos < 0) break;
      const e = this.entryAt(pos);
      const start = this.starts[e]!;
      const end = start + this.lengths[e]!;
      from = end; // the next entry's '\n'
      if (this.isArea[e] ? !areas : !points) continue;
      let rank: number;
      if (pos === start) rank = folded.length === this.lengths[e] ? 0 : 1;
      else {
        rank = text.charCodeAt(pos - 1) === 32 ? 2 : 3;
        // a substring hit may be followed by a word-prefix hit in the same name
        for (let p = text.indexOf(folded, pos + 1); rank === 3 && p >= 0 && p + folded.length <= end; p = text.indexOf(folded, p + 1)) {
          if (text.charCodeAt(p - 1) === 32) rank = 2;
        }
      }
      const key = rank * n + this.tie[e]!;
      if (size === count && key >= keys[size - 1]!) continue;
      let k = size < count ? size++ : size - 1;
      while (k > 0 && keys[k - 1]! > key) {
        keys[k] = keys[k - 1]!;
        entries[k] = entries[k - 1]!;
        k--;
      }
      keys[k] = key;
      entries[k] = e;
    }
    const ranks = new Uint8Array(size);
    for (let k = 0; k < size; k++) ranks[k] = Math.floor(keys[k]! / n);
    return { entries: entries.subarray(0, size), ranks };
  }

  /** The entry whose name holds text offset `pos` (the last start at or before it). */
  private entryAt(pos: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
