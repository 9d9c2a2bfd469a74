/**
 * False islands: parts of the walking (or cycling) network that only ways tagged `foot=no` (or
 * `bicycle=no`) join to the rest. In OpenStreetMap such a tag usually sits on a main carriageway
 * whose sidewalks are mapped as separate ways, or not mapped at all, and on short connectors tagged
 * in passing. Where the separate sidewalks do not meet the rest of the network (a crossing left
 * unmapped), honouring the tag cuts a district or a platform off, and a traveller there would in
 * truth walk on. So, for each part of a layer's network cut off from the others, the shortest chain
 * of such denied ways (at most MAX_LINK_M) to another part is opened to the layer; everywhere else
 * the tag holds.
 *
 * Union-find over the extract's nodes for the parts, and per cut-off part a Dijkstra over the
 * nodes of the denied ways, from every node of the part until a node of another part.
 */
import { wayTagSetOf, type OsmExtract } from './osm-extract.js';
import { planarMetres } from '../util/geodesy.js';
import { backwardBit, CAR_BACKWARD, CAR_FORWARD, forwardBit, Layer, layerBits } from '../model/street-layers.js';
import { deniedByOwnTag } from './street-access.js';

/** Longest chain of denied ways opened to join a part: beyond, the part is taken as truly apart. */
export const MAX_LINK_M = 2000;

/** Open, in `access` (layer bits per way), the denied ways that join cut-off parts of a layer; returns how many per layer. */
export function openFalseIslands(osm: OsmExtract, access: Uint8Array): { walk: number; bike: number } {
  const denied = new Uint8Array(osm.wayCount);
  let any = false;
  for (let w = 0; w < osm.wayCount; w++) {
    denied[w] = deniedByOwnTag(wayTagSetOf(osm, w)) & ~access[w]!;
    if (denied[w]) any = true;
  }
  if (!any) return { walk: 0, bike: 0 };
  return { walk: openLayer(osm, access, denied, Layer.Walk), bike: openLayer(osm, access, denied, Layer.Bike) };
}

function openLayer(osm: OsmExtract, access: Uint8Array, denied: Uint8Array, layer: Layer): number {
  const { nodeCount, wayCount, wayNodeOffset, wayNodes } = osm;
  const bits = layerBits(layer);
  const parts = new UnionFind(nodeCount);
  /** nodes on a way of the layer */
  const onLayer = new Uint8Array(nodeCount);
  const uniteWay = (w: number) => {
    const first = wayNodes[wayNodeOffset[w]!]!;
    for (let i = wayNodeOffset[w]!; i < wayNodeOffset[w + 1]!; i++) {
      onLayer[wayNodes[i]!] = 1;
      parts.unite(wayNodes[i]!, first);
    }
  };
  for (let w = 0; w < wayCount; w++) if (access[w]! & bits) uniteWay(w);
  const links = new DeniedWays(osm, denied, bits);
  if (links.empty) return 0;
  // the parts, largest first: each smaller one looks for a chain to another
  const members = new Map<number, number[]>();
  for (let n = 0; n < nodeCount; n++) {
    if (!onLayer[n]) continue;
    const r = parts.find(n);
    const list = members.get(r);
    if (list) list.push(n);
    else members.set(r, [n]);
  }
  const ordered = [...members.values()].sort((a, b) => b.length - a.length);
  let opened = 0;
  for (const part of ordered.slice(1)) {
    const chain = links.shortestChain(part, (n) => onLayer[n] === 1 && parts.find(n) !== parts.find(part[0]!));
    for (const w of chain) {
      if (access[w]! & bits) continue;
      access[w]! |= directionsOf(access[w]!, layer);
      uniteWay(w);
      opened++;
    }
  }
  return opened;
}

/** Both directions for walkers; for cyclists, the directions cars may take (a one-way carriageway stays one-way), else both. */
function directionsOf(wayBits: number, layer: Layer): number {
  if (layer === Layer.Bike && wayBits & (CAR_FORWARD | CAR_BACKWARD)) {
    return (wayBits & CAR_FORWARD ? forwardBit(layer) : 0) | (wayBits & CAR_BACKWARD ? backwardBit(layer) : 0);
  }
  return layerBits(layer);
}

class UnionFind {
  private readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(n: number): number {
    const p = this.parent;
    while (p[n] !== n) {
      p[n] = p[p[n]!]!;
      n = p[n]!;
    }
    return n;
  }
  unite(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[ra] = rb;
  }
}

/** The graph of the ways denied to a layer: node to node along them, with lengths in metres. */
class DeniedWays {
  private readonly adjacency = new Map<number, { to: number; lengthM: number; way: number }[]>();
  private readonly lon: Float64Array;
  private readonly lat: Float64Array;

  constructor(osm: OsmExtract, denied: Uint8Array, bits: number) {
    this.lon = osm.lon;
    this.lat = osm.lat;
    for (let w = 0; w < osm.wayCount; w++) {
      if (!(denied[w]! & bits)) continue;
      for (let i = osm.wayNodeOffset[w]! + 1; i < osm.wayNodeOffset[w + 1]!; i++) {
        const a = osm.wayNodes[i - 1]!;
        const b = osm.wayNodes[i]!;
        const lengthM = this.distanceM(a, b);
        this.add(a, { to: b, lengthM, way: w });
        this.add(b, { to: a, lengthM, way: w });
      }
    }
  }

  get empty(): boolean {
    return this.adjacency.size === 0;
  }

  /** The ways of the shortest chain (at most MAX_LINK_M) from any of `sources` to a node where `isTarget` holds; empty when none. */
  shortestChain(sources: number[], isTarget: (n: number) => boolean): number[] {
    const dist = new Map<number, number>();
    const via = new Map<number, { from: number; way: number }>();
    const queue = new MinQueue();
    for (const n of sources) {
      if (!this.adjacency.has(n)) continue;
      dist.set(n, 0);
      queue.push(n, 0);
    }
    while (queue.size > 0) {
      const [n, d] = queue.pop();
      if (d > dist.get(n)!) continue;
      if (d > 0 && isTarget(n)) {
        const ways: number[] = [];
        for (let step = via.get(n); step; step = via.get(step.from)) ways.push(step.way);
        return ways;
      }
      for (const { to, lengthM, way } of this.adjacency.get(n) ?? []) {
        const next = d + lengthM;
        if (next > MAX_LINK_M || next >= (dist.get(to) ?? Infinity)) continue;
        dist.set(to, next);
        via.set(to, { from: n, way });
        queue.push(to, next);
      }
    }
    return [];
  }

  private add(n: number, link: { to: number; lengthM: number; way: number }): void {
    const list = this.adjacency.get(n);
    if (list) list.push(link);
    else this.adjacency.set(n, [link]);
  }

  private distanceM(a: number, b: number): number {
    return planarMetres(this.lon[a]!, this.lat[a]!, this.lon[b]!, this.lat[b]!);
  }
}

/** A binary min-heap of (node, distance). */
class MinQueue {
  private readonly nodes: number[] = [];
  private readonly keys: number[] = [];
  get size(): number {
    return this.nodes.length;
  }
  push(node: number, key: number): void {
    const { nodes, keys } = this;
    let i = nodes.length;
    nodes.push(node);
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      nodes[i] = nodes[parent]!;
      keys[i] = keys[parent]!;
      i = parent;
    }
    nodes[i] = node;
    keys[i] = key;
  }
  pop(): [number, number] {
    const { nodes, keys } = this;
    const top: [number, number] = [nodes[0]!, keys[0]!];
    const lastNode = nodes.pop()!;
    const lastKey = keys.pop()!;
    if (nodes.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= nodes.length) break;
        const c = l + 1 < nodes.length && keys[l + 1]! < keys[l]! ? l + 1 : l;
        if (keys[c]! >= lastKey) break;
        nodes[i] = nodes[c]!;
        keys[i] = keys[c]!;
        i = c;
      }
      nodes[i] = lastNode;
      keys[i] = lastKey;
    }
    return top;
  }
}
