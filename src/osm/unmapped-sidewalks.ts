/**
 * `foot=no` on a road whose sidewalks are not mapped. In OpenStreetMap, a carriageway whose
 * sidewalks are drawn as their own ways often carries `foot=no` (walkers use those ways); but many
 * extracts hold the roads alone, and there the tag would take the only mapped way along the street
 * away from walkers, cutting districts apart although their sidewalks exist. So `foot=no` (on a
 * road class walkers may use, not on a motor road) is honoured where a walkway (a way open to
 * walkers and closed to cars: footway, path, pedestrian street, steps, cycleway…) runs beside the
 * road, within SIDEWALK_M of most of its nodes; elsewhere the road stands for its unmapped
 * sidewalks and is opened to walkers in both directions.
 */
import { wayTagSetOf, type OsmExtract } from './osm-extract.js';
import { METRES_PER_DEGREE } from '../util/geodesy.js';
import { CAR_BACKWARD, CAR_FORWARD, Layer, layerBits } from '../model/street-layers.js';
import { deniedByOwnTag } from './street-access.js';

/** A walkway this close (metres) to a node of the road counts as its sidewalk there. */
export const SIDEWALK_M = 25;

/** Open to walkers, in `access` (layer bits per way), the roads closed by their own `foot=no` that have no walkway beside them; returns how many. */
export function openUnmappedSidewalks(osm: OsmExtract, access: Uint8Array): number {
  const walk = layerBits(Layer.Walk);
  const candidates: number[] = [];
  for (let w = 0; w < osm.wayCount; w++) if (deniedByOwnTag(wayTagSetOf(osm, w)) & walk & ~access[w]!) candidates.push(w);
  if (candidates.length === 0) return 0;
  const walkways = new WalkwayIndex(osm, access);
  let opened = 0;
  for (const w of candidates) {
    const first = osm.wayNodeOffset[w]!;
    const last = osm.wayNodeOffset[w + 1]!;
    let beside = 0;
    for (let i = first; i < last; i++) if (walkways.within(osm.wayNodes[i]!, SIDEWALK_M)) beside++;
    if (2 * beside >= last - first) continue;
    access[w]! |= walk;
    opened++;
  }
  return opened;
}

/**
 * The segments of the walkways (open to walkers, closed to cars) in square buckets of SIDEWALK_M,
 * in typed arrays: a hash table of the buckets met (open addressing), each the head of a list of
 * its segments. (A Map of buckets to arrays passed its 2^24 entries, and filled the JavaScript heap,
 * on a country.)
 */
class WalkwayIndex {
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly cols: number;
  /** per slot: its bucket's key (-Infinity: empty; a node at the box's edge asks for keys below 0, never placed) and its list's first entry */
  private readonly slotKey: Float64Array;
  private readonly slotHead: Int32Array;
  private readonly mask: number;
  /** per entry: its segment (the index in wayNodes of its second node) and the next entry of its bucket (-1: none) */
  private readonly entrySegment: Uint32Array;
  private readonly entryNext: Int32Array;

  constructor(
    private readonly osm: OsmExtract,
    access: Uint8Array,
  ) {
    const { nodeCount, lon, lat } = osm;
    let minLon = Infinity;
    let minLat = Infinity;
    let maxLon = -Infinity;
    let sumLat = 0;
    for (let n = 0; n < nodeCount; n++) {
      minLon = Math.min(minLon, lon[n]!);
      maxLon = Math.max(maxLon, lon[n]!);
      minLat = Math.min(minLat, lat[n]!);
      sumLat += lat[n]!;
    }
    const cos = Math.cos(((sumLat / Math.max(1, nodeCount)) * Math.PI) / 180);
    this.x = new Float64Array(nodeCount);
    this.y = new Float64Array(nodeCount);
    for (let n = 0; n < nodeCount; n++) {
      this.x[n] = (lon[n]! - minLon) * METRES_PER_DEGREE * cos;
      this.y[n] = (lat[n]! - minLat) * METRES_PER_DEGREE;
    }
    this.cols = Math.floor(((maxLon - minLon) * METRES_PER_DEGREE * cos) / SIDEWALK_M) + 3;
    // two passes over the walkways' segments: count the entries (a bucket per segment and bucket its box meets), then place them
    let entries = 0;
    this.forEachEntry(access, () => void entries++);
    // at most one bucket per entry: half full at most
    let slots = 2;
    while (slots < 2 * entries) slots *= 2;
    this.mask = slots - 1;
    this.slotKey = new Float64Array(slots).fill(-Infinity);
    this.slotHead = new Int32Array(slots);
    this.entrySegment = new Uint32Array(entries);
    this.entryNext = new Int32Array(entries);
    let entry = 0;
    this.forEachEntry(access, (key, i) => {
      const slot = this.slotOf(key, true);
      this.entrySegment[entry] = i;
      this.entryNext[entry] = this.slotKey[slot] === key ? this.slotHead[slot]! : -1;
      this.slotKey[slot] = key;
      this.slotHead[slot] = entry++;
    });
  }

  /** `visit(key, i)` for each walkway segment (i: the index of its second node in wayNodes) and each bucket its box meets. */
  private forEachEntry(access: Uint8Array, visit: (key: number, i: number) => void): void {
    const { osm } = this;
    const walk = layerBits(Layer.Walk);
    for (let w = 0; w < osm.wayCount; w++) {
      const bits = access[w]!;
      if (!(bits & walk) || bits & (CAR_FORWARD | CAR_BACKWARD)) continue;
      for (let i = osm.wayNodeOffset[w]! + 1; i < osm.wayNodeOffset[w + 1]!; i++) {
        const a = osm.wayNodes[i - 1]!;
        const b = osm.wayNodes[i]!;
        for (let bx = this.col(Math.min(this.x[a]!, this.x[b]!)); bx <= this.col(Math.max(this.x[a]!, this.x[b]!)); bx++) {
          for (let by = this.col(Math.min(this.y[a]!, this.y[b]!)); by <= this.col(Math.max(this.y[a]!, this.y[b]!)); by++) visit(by * this.cols + bx, i);
        }
      }
    }
  }

  /** The slot of bucket `key`: its own, or (`claim`) the empty one it would take; -1 when absent and not claimed. */
  private slotOf(key: number, claim: boolean): number {
    // a bucket's key is a whole number below 2^53: its two 32-bit halves mixed
    const lo = key >>> 0;
    const hi = Math.floor(key / 4294967296);
    let slot = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) & this.mask;
    for (;;) {
      const at = this.slotKey[slot]!;
      if (at === key) return slot;
      if (at === -Infinity) return claim ? slot : -1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Whether a walkway segment passes within `maxM` of node n (maxM at most the bucket side). */
  within(n: number, maxM: number): boolean {
    const px = this.x[n]!;
    const py = this.y[n]!;
    const { wayNodes } = this.osm;
    for (let bx = this.col(px) - 1; bx <= this.col(px) + 1; bx++) {
      for (let by = this.col(py) - 1; by <= this.col(py) + 1; by++) {
        const slot = this.slotOf(by * this.cols + bx, false);
        for (let e = slot < 0 ? -1 : this.slotHead[slot]!; e >= 0; e = this.entryNext[e]!) {
          const i = this.entrySegment[e]!;
          const a = wayNodes[i - 1]!;
          const b = wayNodes[i]!;
          if (segmentDistance(px, py, this.x[a]!, this.y[a]!, this.x[b]!, this.y[b]!) <= maxM) return true;
        }
      }
    }
    return false;
  }

  private col(v: number): number {
    return Math.floor(v / SIDEWALK_M);
  }
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  return Math.hypot(ax + t * dx - px, ay + t * dy - py);
}
