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

/** The segments of the walkways (open to walkers, closed to cars) in square buckets of SIDEWALK_M. */
class WalkwayIndex {
  private readonly buckets = new Map<number, number[]>();
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly cols: number;

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
    const walk = layerBits(Layer.Walk);
    for (let w = 0; w < osm.wayCount; w++) {
      const bits = access[w]!;
      if (!(bits & walk) || bits & (CAR_FORWARD | CAR_BACKWARD)) continue;
      for (let i = osm.wayNodeOffset[w]! + 1; i < osm.wayNodeOffset[w + 1]!; i++) {
        const a = osm.wayNodes[i - 1]!;
        const b = osm.wayNodes[i]!;
        // every bucket the segment's box meets
        for (let bx = this.col(Math.min(this.x[a]!, this.x[b]!)); bx <= this.col(Math.max(this.x[a]!, this.x[b]!)); bx++) {
          for (let by = this.col(Math.min(this.y[a]!, this.y[b]!)); by <= this.col(Math.max(this.y[a]!, this.y[b]!)); by++) {
            const key = by * this.cols + bx;
            const list = this.buckets.get(key);
            if (list) list.push(i);
            else this.buckets.set(key, [i]);
          }
        }
      }
    }
  }

  /** Whether a walkway segment passes within `maxM` of node n (maxM at most the bucket side). */
  within(n: number, maxM: number): boolean {
    const px = this.x[n]!;
    const py = this.y[n]!;
    const { wayNodes } = this.osm;
    for (let bx = this.col(px) - 1; bx <= this.col(px) + 1; bx++) {
      for (let by = this.col(py) - 1; by <= this.col(py) + 1; by++) {
        for (const i of this.buckets.get(by * this.cols + bx) ?? []) {
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
