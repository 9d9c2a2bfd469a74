/**
 * The basemap of an extract: what a map shows under the streets so that a person knows where they
 * are, read from the coverage's own OpenStreetMap file (no tile server). Water and parks as the
 * closed ways that outline them, railways as lines, and named places as points:
 *
 *   water  natural=water, waterway=riverbank, landuse=reservoir            (closed ways)
 *   park   leisure=park, landuse=grass | forest | recreation_ground        (closed ways)
 *   rail   railway=rail | light_rail | subway | narrow_gauge               (lines)
 *   place  place=city | town | suburb | neighbourhood | village, with a name (nodes)
 *
 * Water and parks mapped as multipolygon relations (large lakes, rivers and forests often are) are
 * drawn as their outer rings, joined from their member ways end to end; their inner rings (islands,
 * clearings) are not cut out. Left out: an area cut at the extract's edge (it no longer closes, or a
 * member way is missing). A railway cut at the edge keeps its runs of known nodes.
 *
 * The readers hand ways and tagged nodes over as they read; `finish` resolves node references once
 * the whole file is read (extracts are not always sorted). Shapes are struct of arrays:
 *
 *   shapeKind[s]                      BasemapKind of shape s
 *   lon/lat[pointOffset[s] .. pointOffset[s+1])   its points, degrees (a polygon's ring closes)
 *   placeLon/placeLat/placeRank[p], placeName[p]   place p (rank: index in PLACE_KINDS)
 */
import { Growable } from '../model/growable.js';

export const enum BasemapKind {
  Water = 0,
  Park = 1,
  Rail = 2,
}

/** The kinds' names on the wire, by BasemapKind. */
export const BASEMAP_KIND_NAMES = ['water', 'park', 'rail'] as const;

/** The place values kept, biggest first (their index is the place's rank). */
export const PLACE_KINDS = ['city', 'town', 'suburb', 'village', 'neighbourhood'] as const;

/** The basemap kind of a way's tags, or -1 when it is not drawn. */
export function basemapKindOf(tags: Record<string, string>): number {
  if (tags['natural'] === 'water' || tags['waterway'] === 'riverbank' || tags['landuse'] === 'reservoir') return BasemapKind.Water;
  const landuse = tags['landuse'];
  if (tags['leisure'] === 'park' || landuse === 'grass' || landuse === 'forest' || landuse === 'recreation_ground') return BasemapKind.Park;
  const railway = tags['railway'];
  if (railway === 'rail' || railway === 'light_rail' || railway === 'subway' || railway === 'narrow_gauge') return BasemapKind.Rail;
  return -1;
}

export interface OsmBasemap {
  shapeCount: number;
  shapeKind: Uint8Array;
  /** points of shape s: [pointOffset[s], pointOffset[s + 1]) */
  pointOffset: Uint32Array;
  lon: Float64Array;
  lat: Float64Array;
  placeCount: number;
  placeLon: Float64Array;
  placeLat: Float64Array;
  /** index in PLACE_KINDS */
  placeRank: Uint8Array;
  placeName: string[];
  /** areas left out because they do not close: a way or a multipolygon's ring cut at the extract's edge, or mapped open */
  openAreas: number;
}

/** How a finished draft finds a node: its raw index by id (-1 when absent), and the raw coordinates. */
export interface NodeLookup {
  find(id: number): number;
  lon: Float64Array;
  lat: Float64Array;
}

/** A way of no basemap kind, kept only as a possible member of a multipolygon. */
const NO_KIND = 255;

export class BasemapDraft {
  private readonly wayId = new Growable(Float64Array, 256);
  private readonly wayKind = new Growable(Uint8Array, 256);
  private readonly wayRefStart = new Growable(Uint32Array, 256);
  private readonly wayRefs = new Growable(Float64Array, 4096);
  private readonly placeLon = new Growable(Float64Array, 64);
  private readonly placeLat = new Growable(Float64Array, 64);
  private readonly placeRank = new Growable(Uint8Array, 64);
  private readonly placeName: string[] = [];

  /** the multipolygons: their kind and their outer member ways' ids */
  private readonly multipolygons: { kind: number; outer: number[] }[] = [];

  /** A way of kind `kind` (from `basemapKindOf`, -1 for none: a possible member), its id and node ids. */
  way(kind: number, id: number, refs: ArrayLike<number>): void {
    this.wayId.push(id);
    this.wayKind.push(kind < 0 ? NO_KIND : kind);
    this.wayRefStart.push(this.wayRefs.length);
    for (let i = 0; i < refs.length; i++) this.wayRefs.push(refs[i]!);
  }

  /** A multipolygon relation of kind `kind` (water or park) and the ids of its outer member ways. */
  multipolygon(kind: number, outer: number[]): void {
    this.multipolygons.push({ kind, outer });
  }

  /** A node with tags: kept when it is a named place. */
  node(lon: number, lat: number, tags: Record<string, string>): void {
    const rank = (PLACE_KINDS as readonly string[]).indexOf(tags['place'] ?? '');
    const name = tags['name'];
    if (rank < 0 || !name) return;
    this.placeLon.push(lon);
    this.placeLat.push(lat);
    this.placeRank.push(rank);
    this.placeName.push(name);
  }

  finish(nodes: NodeLookup): OsmBasemap {
    const kinds: number[] = [];
    const offsets: number[] = [0];
    const lon = new Growable(Float64Array, 4096);
    const lat = new Growable(Float64Array, 4096);
    let openAreas = 0;
    const wayCount = this.wayKind.length;
    const refs = this.wayRefs.data;
    const endShape = (kind: number) => {
      kinds.push(kind);
      offsets.push(lon.length);
    };
    for (let w = 0; w < wayCount; w++) {
      const kind = this.wayKind.data[w]!;
      if (kind === NO_KIND) continue;
      const start = this.wayRefStart.data[w]!;
      const end = w + 1 < wayCount ? this.wayRefStart.data[w + 1]! : this.wayRefs.length;
      if (kind !== BasemapKind.Rail) {
        // an area: a ring of four references or more (three corners and the first again), all known
        let known = end - start >= 4 && refs[start] === refs[end - 1];
        for (let k = start; known && k < end; k++) if (nodes.find(refs[k]!) < 0) known = false;
        if (!known) {
          openAreas++;
          continue;
        }
        for (let k = start; k < end; k++) {
          const raw = nodes.find(refs[k]!);
          lon.push(nodes.lon[raw]!);
          lat.push(nodes.lat[raw]!);
        }
        endShape(kind);
        continue;
      }
      // a railway: its runs of known nodes, each a line of two points or more
      let runStart = lon.length;
      for (let k = start; k <= end; k++) {
        const raw = k < end ? nodes.find(refs[k]!) : -1;
        if (raw >= 0) {
          lon.push(nodes.lon[raw]!);
          lat.push(nodes.lat[raw]!);
          continue;
        }
        if (lon.length - runStart >= 2) endShape(kind);
        else lon.length = lat.length = runStart; // a lone point is no line
        runStart = lon.length;
      }
    }
    // multipolygons: each outer ring joined from member ways, every node known
    const wayIndex = new Map<number, number>();
    for (let w = 0; w < wayCount; w++) wayIndex.set(this.wayId.data[w]!, w);
    const wayRefs = (w: number) => Array.from(refs.subarray(this.wayRefStart.data[w]!, w + 1 < wayCount ? this.wayRefStart.data[w + 1]! : this.wayRefs.length));
    for (const { kind, outer } of this.multipolygons) {
      const parts = outer.map((id) => wayIndex.get(id));
      if (parts.some((w) => w === undefined)) {
        openAreas++;
        continue;
      }
      for (const ring of joinRings(parts.map((w) => wayRefs(w!)))) {
        if (ring === null || ring.some((id) => nodes.find(id) < 0)) {
          openAreas++;
          continue;
        }
        for (const id of ring) {
          const raw = nodes.find(id);
          lon.push(nodes.lon[raw]!);
          lat.push(nodes.lat[raw]!);
        }
        endShape(kind);
      }
    }
    return {
      shapeCount: kinds.length,
      shapeKind: Uint8Array.from(kinds),
      pointOffset: Uint32Array.from(offsets),
      lon: lon.finish(),
      lat: lat.finish(),
      placeCount: this.placeName.length,
      placeLon: this.placeLon.finish(),
      placeLat: this.placeLat.finish(),
      placeRank: this.placeRank.finish(),
      placeName: this.placeName,
      openAreas,
    };
  }
}

/**
 * The rings the member ways of a multipolygon make, each way joined end to end with those sharing
 * an end node (reversed where needed): a closed ring (its first node again last, four references or
 * more), or null for a chain that does not close.
 */
export function joinRings(ways: number[][]): (number[] | null)[] {
  const left = ways.filter((w) => w.length >= 2).map((w) => [...w]);
  const rings: (number[] | null)[] = [];
  while (left.length > 0) {
    const ring = left.shift()!;
    for (;;) {
      if (ring[0] === ring[ring.length - 1]) break;
      const end = ring[ring.length - 1]!;
      const k = left.findIndex((w) => w[0] === end || w[w.length - 1] === end);
      if (k < 0) break;
      const next = left.splice(k, 1)[0]!;
      if (next[0] !== end) next.reverse();
      for (let i = 1; i < next.length; i++) ring.push(next[i]!);
    }
    rings.push(ring.length >= 4 && ring[0] === ring[ring.length - 1] ? ring : null);
  }
  return rings;
}
