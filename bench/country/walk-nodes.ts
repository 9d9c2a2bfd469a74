/**
 * The nodes of an extract's largest walking network, and the nearest of them to a point: where the
 * generator puts a tile's intercity station and the stops of a timetable laid on the tile's streets
 * (feed-placement.ts). A point on one of these nodes is on a street Navette walks, in the part of the
 * network its small-island rule keeps (src/model/small-islands.ts), at no off-street offset.
 *
 * Walkable ways are those Navette's access rules open to walkers (src/osm/street-access.ts); the
 * parts are found by union-find over their consecutive nodes, the largest by node count (the one
 * with the lowest node on a tie). The nearest node is found in a KDBush index on metres around the
 * extract's centre, by a radius doubled until it holds a node; the lowest node wins a tie.
 */
import KDBush from 'kdbush';
import { wayAccess } from '../../src/osm/street-access.js';
import { Layer, layerBits } from '../../src/model/street-layers.js';
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';
import type { StreetSource } from './street-source.js';

/** The first radius tried, metres (stops are mostly within tens of metres of a node). */
const FIRST_RADIUS_M = 100;

export class WalkNodes {
  private readonly index: KDBush;
  /** the nodes indexed (the index's item i is node nodes[i]) */
  private readonly nodes: Uint32Array;
  private readonly cosLat: number;

  constructor(private readonly source: StreetSource) {
    this.nodes = largestWalkingPart(source);
    this.cosLat = Math.cos((source.centre.lat * Math.PI) / 180);
    this.index = new KDBush(this.nodes.length);
    for (const k of this.nodes) this.index.add(this.x(source.a.lon[k]!), this.y(source.a.lat[k]!));
    this.index.finish();
  }

  /** How many nodes the largest walking part has. */
  get size(): number {
    return this.nodes.length;
  }

  /** The node of the largest walking part nearest to (lon, lat), degrees. */
  nearest(lon: number, lat: number): number {
    const { lon: nodeLon, lat: nodeLat } = this.source.a;
    const x = this.x(lon);
    const y = this.y(lat);
    for (let r = FIRST_RADIUS_M; ; r *= 2) {
      const found = this.index.within(x, y, r);
      if (found.length === 0) continue;
      let best = -1;
      let bestD2 = Infinity;
      for (const i of found) {
        const k = this.nodes[i]!;
        const d2 = (this.x(nodeLon[k]!) - x) ** 2 + (this.y(nodeLat[k]!) - y) ** 2;
        if (d2 < bestD2 || (d2 === bestD2 && k < best)) {
          best = k;
          bestD2 = d2;
        }
      }
      return best;
    }
  }

  private x(lon: number): number {
    return (lon - this.source.centre.lon) * METRES_PER_DEGREE * this.cosLat;
  }

  private y(lat: number): number {
    return (lat - this.source.centre.lat) * METRES_PER_DEGREE;
  }
}

/** The nodes, ascending, of the largest part of the network the walkable ways make. */
function largestWalkingPart(source: StreetSource): Uint32Array {
  const { nodeCount, wayCount, wayNodeOffset, wayNodes } = source.a;
  const parent = new Int32Array(nodeCount);
  for (let k = 0; k < nodeCount; k++) parent[k] = k;
  const find = (k: number): number => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k]!]!;
      k = parent[k]!;
    }
    return k;
  };
  const walkable = new Uint8Array(nodeCount);
  const walkBits = layerBits(Layer.Walk);
  for (let w = 0; w < wayCount; w++) {
    if (!(wayAccess(source.tagsOf(w)) & walkBits)) continue;
    for (let i = wayNodeOffset[w]!; i < wayNodeOffset[w + 1]!; i++) {
      walkable[wayNodes[i]!] = 1;
      if (i > wayNodeOffset[w]!) {
        // the lower root becomes the parent: a part's root is its lowest node
        const a = find(wayNodes[i - 1]!);
        const b = find(wayNodes[i]!);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  const size = new Uint32Array(nodeCount);
  for (let k = 0; k < nodeCount; k++) if (walkable[k]) size[find(k)]!++;
  let largest = 0;
  for (let k = 1; k < nodeCount; k++) if (size[k]! > size[largest]!) largest = k;
  const nodes: number[] = [];
  for (let k = 0; k < nodeCount; k++) if (walkable[k] && find(k) === largest) nodes.push(k);
  return Uint32Array.from(nodes);
}
