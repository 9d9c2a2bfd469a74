/**
 * A street extract read once into compact arrays, to be written as many tiles as the country has of
 * it (pbf-out.ts): its nodes and highway ways as Navette's reader keeps them, renumbered.
 *
 * The extract is read by Navette's own reader (src/osm/read-osm.ts): highway ways with the tags the
 * street graph uses (KEPT_WAY_TAGS), and the nodes they use. A way cut at the extract's edge (Milan
 * has 42,142 references to absent nodes) comes split into its runs of present nodes, runs of fewer
 * than two dropped, as that reader makes them: a tile is what Navette reads of its extract, and the
 * file written refers to no absent node.
 *
 * Nodes are numbered 1, 2, … in the order of their OpenStreetMap ids, ways likewise (the runs of a
 * split way in their order), so a tile's ids are sorted; tile t adds t × ID_STRIDE to both.
 */
import assert from 'node:assert/strict';
import { readOsm } from '../../src/osm/read-osm.js';
import { wayTagsOf } from '../../src/osm/osm-extract.js';

/** Tile t's node and way ids are t × ID_STRIDE + 1, + 2, …: every extract has fewer of each. */
export const ID_STRIDE = 1_000_000;

export interface StreetArrays {
  nodeCount: number;
  wayCount: number;
  /** node k (k = its id − 1 in a tile): degrees */
  lon: Float64Array;
  lat: Float64Array;
  /** nodes of way w: wayNodes[wayNodeOffset[w] .. wayNodeOffset[w+1]) */
  wayNodeOffset: Uint32Array;
  wayNodes: Uint32Array;
  /** tags of way w: tagKeys / tagValues [wayTagOffset[w] .. wayTagOffset[w+1]) */
  wayTagOffset: Uint32Array;
  tagKeys: string[];
  tagValues: string[];
}

export class StreetSource {
  /** the nodes' box, degrees: [west, south, east, north] */
  readonly bbox: [number, number, number, number];

  private constructor(
    readonly file: string,
    readonly a: StreetArrays,
  ) {
    let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = 0; k < a.nodeCount; k++) {
      west = Math.min(west, a.lon[k]!);
      east = Math.max(east, a.lon[k]!);
      south = Math.min(south, a.lat[k]!);
      north = Math.max(north, a.lat[k]!);
    }
    this.bbox = [west, south, east, north];
  }

  /** The centre of the nodes' box, which the tile transform moves to a cell's centre. */
  get centre(): { lon: number; lat: number } {
    const [west, south, east, north] = this.bbox;
    return { lon: (west + east) / 2, lat: (south + north) / 2 };
  }

  /** The way's tags as key/value pairs (for the walking rules). */
  tagsOf(w: number): Record<string, string> {
    const tags: Record<string, string> = {};
    const { wayTagOffset, tagKeys, tagValues } = this.a;
    for (let t = wayTagOffset[w]!; t < wayTagOffset[w + 1]!; t++) tags[tagKeys[t]!] = tagValues[t]!;
    return tags;
  }

  static async load(file: string): Promise<StreetSource> {
    const x = await readOsm(file);
    assert.ok(x.nodeCount > 0, `${file}: no highway way`);
    assert.ok(x.nodeCount < ID_STRIDE && x.wayCount < ID_STRIDE, `${file}: ${x.nodeCount} nodes and ${x.wayCount} ways, ID_STRIDE (${ID_STRIDE}) must exceed both`);
    const nodeOrder = sortedOrder(x.nodeIds, x.nodeCount);
    const rank = new Uint32Array(x.nodeCount);
    for (let k = 0; k < x.nodeCount; k++) rank[nodeOrder[k]!] = k;
    const lon = new Float64Array(x.nodeCount);
    const lat = new Float64Array(x.nodeCount);
    for (let k = 0; k < x.nodeCount; k++) {
      lon[k] = x.lon[nodeOrder[k]!]!;
      lat[k] = x.lat[nodeOrder[k]!]!;
    }
    const wayOrder = sortedOrder(x.wayIds, x.wayCount);
    const wayNodeOffset = new Uint32Array(x.wayCount + 1);
    const wayNodes = new Uint32Array(x.wayNodes.length);
    const wayTagOffset = new Uint32Array(x.wayCount + 1);
    const tagKeys: string[] = [];
    const tagValues: string[] = [];
    let at = 0;
    for (let w = 0; w < x.wayCount; w++) {
      const from = wayOrder[w]!;
      for (let i = x.wayNodeOffset[from]!; i < x.wayNodeOffset[from + 1]!; i++) wayNodes[at++] = rank[x.wayNodes[i]!]!;
      wayNodeOffset[w + 1] = at;
      // tags in key order, so that a way's tags do not depend on the order the extract wrote them in
      const tags = wayTagsOf(x, from);
      for (const key of Object.keys(tags).sort()) {
        tagKeys.push(key);
        tagValues.push(tags[key]!);
      }
      wayTagOffset[w + 1] = tagKeys.length;
    }
    return new StreetSource(file, { nodeCount: x.nodeCount, wayCount: x.wayCount, lon, lat, wayNodeOffset, wayNodes, wayTagOffset, tagKeys, tagValues });
  }
}

/** Indexes 0…n−1 sorted by `ids`, equal ids in their order (the runs of a split way). */
function sortedOrder(ids: Float64Array, n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => ids[a]! - ids[b]! || a - b);
}
