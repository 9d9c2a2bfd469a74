/**
 * What the OpenStreetMap readers hand to the street-graph builder: the ways that carry a `highway`
 * tag (with the few tags the graph needs) and the nodes they use, on dense integer indexes.
 *
 * The readers push elements in file order; `finish()` resolves way references whatever that order
 * (extracts are not always sorted by id): node ids are sorted once and references found by binary
 * search. A reference to a node missing from the extract (a way cut at its edge) splits the way
 * into the runs on either side; runs of fewer than two nodes are dropped.
 */
import { Growable } from '../model/growable.js';

/** Way tags kept for the street graph. */
export const KEPT_WAY_TAGS = [
  'highway',
  'name',
  'foot',
  'bicycle',
  'motor_vehicle',
  'motorcar',
  'vehicle',
  'access',
  'oneway',
  'oneway:bicycle',
  'oneway:foot',
  'junction',
  'area',
  'sidewalk',
  'cycleway',
  'cycleway:left',
  'cycleway:right',
  'maxspeed',
  'service',
  'footway',
  'bridge',
  'tunnel',
  'layer',
] as const;
const KEPT = new Set<string>(KEPT_WAY_TAGS);

export interface OsmStats {
  nodesRead: number;
  waysRead: number;
  relationsRead: number;
  /** kept ways (after splitting at missing nodes) */
  waysKept: number;
  /** references, in any way, to nodes absent from the extract (ways cut at its edge) */
  missingNodeRefs: number;
  /** runs of a kept way left with fewer than two known nodes */
  waysDroppedTooShort: number;
  /** highway ways whose id came again (the first one is kept) */
  duplicateWays: number;
  bbox: [number, number, number, number] | null;
}

export interface OsmExtract {
  nodeCount: number;
  nodeIds: Float64Array;
  lon: Float64Array;
  lat: Float64Array;
  wayCount: number;
  wayIds: Float64Array;
  /** nodes of way w: wayNodes[wayNodeOffset[w] .. wayNodeOffset[w+1]) */
  wayNodeOffset: Uint32Array;
  wayNodes: Uint32Array;
  wayTags: Array<Record<string, string>>;
  stats: OsmStats;
}

export class OsmExtractBuilder {
  private readonly nodeId = new Growable(Float64Array, 1 << 16);
  private readonly nodeLon = new Growable(Float64Array, 1 << 16);
  private readonly nodeLat = new Growable(Float64Array, 1 << 16);
  private readonly wayId = new Growable(Float64Array, 1 << 12);
  private readonly wayRefStart = new Growable(Uint32Array, 1 << 12);
  private readonly wayRefs = new Growable(Float64Array, 1 << 16);
  private readonly wayTags: Array<Record<string, string>> = [];
  /** node refs of the other ways, only to count the missing ones */
  private readonly otherRefs = new Growable(Float64Array, 1 << 12);
  private waysRead = 0;
  relationsRead = 0;

  node(id: number, lon: number, lat: number): void {
    this.nodeId.push(id);
    this.nodeLon.push(lon);
    this.nodeLat.push(lat);
  }

  /** A way with its node ids and all its tags (only highway ways are kept). */
  way(id: number, refs: ArrayLike<number>, tags: Record<string, string>): void {
    this.waysRead++;
    if (tags['highway'] === undefined) {
      for (let i = 0; i < refs.length; i++) this.otherRefs.push(refs[i]!);
      return;
    }
    const kept: Record<string, string> = {};
    for (const k in tags) if (KEPT.has(k)) kept[k] = tags[k]!;
    this.wayId.push(id);
    this.wayRefStart.push(this.wayRefs.length);
    for (let i = 0; i < refs.length; i++) this.wayRefs.push(refs[i]!);
    this.wayTags.push(kept);
  }

  finish(): OsmExtract {
    const n = this.nodeId.length;
    const ids = this.nodeId.data;
    // node indexes sorted by id (a stable order for duplicate ids: the first one wins)
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    let sorted = true;
    for (let i = 1; i < n; i++) if (ids[i]! <= ids[i - 1]!) sorted = false;
    if (!sorted) order.sort((a, b) => ids[a]! - ids[b]! || a - b);
    const sortedIds = new Float64Array(n);
    for (let i = 0; i < n; i++) sortedIds[i] = ids[order[i]!]!;
    const find = (id: number): number => {
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const v = sortedIds[mid]!;
        if (v < id) lo = mid + 1;
        else if (v > id) hi = mid - 1;
        else {
          let m = mid;
          while (m > 0 && sortedIds[m - 1] === id) m--;
          return order[m]!;
        }
      }
      return -1;
    };

    const dense = new Int32Array(n).fill(-1);
    const usedNodes: number[] = [];
    const wayIds: number[] = [];
    const offsets: number[] = [0];
    const nodes: number[] = [];
    const tags: Array<Record<string, string>> = [];
    let missing = 0;
    let tooShort = 0;
    const refs = this.wayRefs.data;
    const starts = this.wayRefStart.data;
    const wayCountIn = this.wayId.length;
    const run: number[] = [];
    const flush = (w: number) => {
      if (run.length >= 2) {
        for (const raw of run) {
          if (dense[raw]! < 0) {
            dense[raw] = usedNodes.length;
            usedNodes.push(raw);
          }
          nodes.push(dense[raw]!);
        }
        offsets.push(nodes.length);
        wayIds.push(this.wayId.data[w]!);
        tags.push(this.wayTags[w]!);
      } else tooShort++;
      run.length = 0;
    };
    // a way id met again (some extracts repeat a way): the first one is kept
    const wayOrder = Array.from({ length: wayCountIn }, (_, w) => w).sort((a, b) => this.wayId.data[a]! - this.wayId.data[b]! || a - b);
    const repeated = new Uint8Array(wayCountIn);
    let duplicates = 0;
    for (let k = 1; k < wayCountIn; k++) {
      if (this.wayId.data[wayOrder[k]!] === this.wayId.data[wayOrder[k - 1]!]) {
        repeated[wayOrder[k]!] = 1;
        duplicates++;
      }
    }
    for (let w = 0; w < wayCountIn; w++) {
      if (repeated[w]) continue;
      const end = w + 1 < wayCountIn ? starts[w + 1]! : this.wayRefs.length;
      let pieces = 0;
      for (let k = starts[w]!; k < end; k++) {
        const raw = find(refs[k]!);
        if (raw < 0) {
          missing++;
          if (run.length > 0) {
            flush(w);
            pieces++;
          }
          continue;
        }
        if (run.length > 0 && run[run.length - 1] === raw) continue; // repeated node
        run.push(raw);
      }
      if (run.length > 0 || pieces === 0) flush(w);
    }

    for (let k = 0; k < this.otherRefs.length; k++) if (find(this.otherRefs.data[k]!) < 0) missing++;
    this.otherRefs.clear();
    const count = usedNodes.length;
    const lon = new Float64Array(count);
    const lat = new Float64Array(count);
    const nodeIds = new Float64Array(count);
    let minLon = Infinity;
    let minLat = Infinity;
    let maxLon = -Infinity;
    let maxLat = -Infinity;
    for (let i = 0; i < count; i++) {
      const raw = usedNodes[i]!;
      lon[i] = this.nodeLon.data[raw]!;
      lat[i] = this.nodeLat.data[raw]!;
      nodeIds[i] = ids[raw]!;
      minLon = Math.min(minLon, lon[i]!);
      maxLon = Math.max(maxLon, lon[i]!);
      minLat = Math.min(minLat, lat[i]!);
      maxLat = Math.max(maxLat, lat[i]!);
    }
    return {
      nodeCount: count,
      nodeIds,
      lon,
      lat,
      wayCount: wayIds.length,
      wayIds: Float64Array.from(wayIds),
      wayNodeOffset: Uint32Array.from(offsets),
      wayNodes: Uint32Array.from(nodes),
      wayTags: tags,
      stats: {
        nodesRead: n,
        waysRead: this.waysRead,
        relationsRead: this.relationsRead,
        waysKept: wayIds.length,
        missingNodeRefs: missing,
        waysDroppedTooShort: tooShort,
        duplicateWays: duplicates,
        bbox: count > 0 ? [minLon, minLat, maxLon, maxLat] : null,
      },
    };
  }
}
