/**
 * A coverage's basemap (osm/basemap-draft.ts) as one GeoJSON FeatureCollection, drawn under the
 * streets by the explorer:
 *
 *   {"kind": "park"}   MultiPolygon      (parks first: water drawn over them)
 *   {"kind": "water"}  MultiPolygon
 *   {"kind": "rail"}   MultiLineString
 *   {"kind": "place", "place": "suburb", "name": "…"}   one Point each, biggest places first
 *
 * Each shape is simplified by Douglas–Peucker at BASEMAP_TOLERANCE_M (its ends kept: a ring stays
 * closed), areas smaller than MIN_AREA_M2 after that are left out (a lawn, a fountain), and the
 * whole stops at MAX_POINTS points and MAX_PLACES places, so that a country-sized extract still
 * gives a page a few megabytes at most; `truncated` says when a cap cut it. Coordinates to 5 decimals.
 */
import { METRES_PER_DEGREE } from '../util/geodesy.js';
import { BASEMAP_KIND_NAMES, BasemapKind, PLACE_KINDS, type OsmBasemap } from '../osm/basemap-draft.js';
import { markKept, round5 } from './line-geometry.js';

/** Simplification tolerance, metres: a basemap is read at city zoom levels. */
export const BASEMAP_TOLERANCE_M = 10;
/** Areas below this (after simplification) are not drawn, square metres. */
export const MIN_AREA_M2 = 2000;
/** The most points and places written. */
export const MAX_POINTS = 300_000;
export const MAX_PLACES = 1000;

/** What was written: shapes and places kept, and whether a cap stopped the writing. */
export interface BasemapSummary {
  shapes: number;
  points: number;
  places: number;
  truncated: boolean;
}

export function basemapGeoJson(b: OsmBasemap, limits = { maxPoints: MAX_POINTS, maxPlaces: MAX_PLACES }): { text: string; summary: BasemapSummary } {
  const parts: string[][] = BASEMAP_KIND_NAMES.map(() => []);
  const summary: BasemapSummary = { shapes: 0, points: 0, places: 0, truncated: false };
  const simplifier = new Simplifier(b);
  // parks, water, then railways: the order they are drawn in; the first shape over the cap stops all
  shapes: for (const kind of [BasemapKind.Park, BasemapKind.Water, BasemapKind.Rail]) {
    for (let s = 0; s < b.shapeCount; s++) {
      if (b.shapeKind[s] !== kind) continue;
      const kept = simplifier.simplify(s);
      if (kept.length === 0) continue;
      if (kind !== BasemapKind.Rail && simplifier.areaM2(kept) < MIN_AREA_M2) continue;
      if (summary.points + kept.length > limits.maxPoints) {
        summary.truncated = true;
        break shapes;
      }
      summary.points += kept.length;
      summary.shapes++;
      const coordinates = `[${kept.map((p) => `[${round5(b.lon[p]!)},${round5(b.lat[p]!)}]`).join(',')}]`;
      parts[kind]!.push(kind === BasemapKind.Rail ? coordinates : `[${coordinates}]`);
    }
  }
  const features: string[] = [];
  const feature = (kind: BasemapKind, type: string) => {
    if (parts[kind]!.length > 0) features.push(`{"type":"Feature","properties":{"kind":"${BASEMAP_KIND_NAMES[kind]}"},"geometry":{"type":"${type}","coordinates":[${parts[kind]!.join(',')}]}}`);
  };
  feature(BasemapKind.Park, 'MultiPolygon');
  feature(BasemapKind.Water, 'MultiPolygon');
  feature(BasemapKind.Rail, 'MultiLineString');
  const places = Array.from({ length: b.placeCount }, (_, p) => p).sort((p, q) => b.placeRank[p]! - b.placeRank[q]! || p - q);
  if (places.length > limits.maxPlaces) summary.truncated = true;
  for (const p of places.slice(0, limits.maxPlaces)) {
    const properties = JSON.stringify({ kind: 'place', place: PLACE_KINDS[b.placeRank[p]!], name: b.placeName[p] });
    features.push(`{"type":"Feature","properties":${properties},"geometry":{"type":"Point","coordinates":[${round5(b.placeLon[p]!)},${round5(b.placeLat[p]!)}]}}`);
    summary.places++;
  }
  return { text: `{"type":"FeatureCollection","truncated":${summary.truncated},"features":[${features.join(',')}]}`, summary };
}

/**
 * Douglas–Peucker on one shape at a time, in metres of a local plane (longitudes scaled by the
 * cosine of the shape's first latitude: exact enough over a shape's size). Scratch kept between shapes.
 */
class Simplifier {
  private keep = new Uint8Array(64);
  private x = new Float64Array(64);
  private y = new Float64Array(64);
  private readonly stack: number[] = [];
  private readonly tolerance2 = BASEMAP_TOLERANCE_M * BASEMAP_TOLERANCE_M;

  constructor(private readonly b: OsmBasemap) {}

  /** The indexes (into b.lon/b.lat) of the points of shape s that stay, or none when fewer than a line or ring needs. */
  simplify(s: number): number[] {
    const { b } = this;
    const p0 = b.pointOffset[s]!;
    const n = b.pointOffset[s + 1]! - p0;
    if (this.keep.length < n) {
      this.keep = new Uint8Array(n * 2);
      this.x = new Float64Array(n * 2);
      this.y = new Float64Array(n * 2);
    }
    const { keep, x, y } = this;
    // metres per degree of longitude, hoisted for the shape
    const mPerDegLon = METRES_PER_DEGREE * Math.cos((b.lat[p0]! * Math.PI) / 180);
    for (let i = 0; i < n; i++) {
      x[i] = (b.lon[p0 + i]! - b.lon[p0]!) * mPerDegLon;
      y[i] = (b.lat[p0 + i]! - b.lat[p0]!) * METRES_PER_DEGREE;
      keep[i] = 0;
    }
    const ring = b.shapeKind[s] !== BasemapKind.Rail;
    if (ring) {
      // a ring's ends are the same point: split it at its farthest point from them, kept too
      let far = 0;
      for (let i = 1; i < n; i++) if (x[i]! * x[i]! + y[i]! * y[i]! > x[far]! * x[far]! + y[far]! * y[far]!) far = i;
      keep[far] = 1;
      markKept(this.x, this.y, 0, 0, far, this.tolerance2, keep, this.stack);
      markKept(this.x, this.y, 0, far, n - 1, this.tolerance2, keep, this.stack);
    } else markKept(this.x, this.y, 0, 0, n - 1, this.tolerance2, keep, this.stack);
    keep[0] = 1;
    keep[n - 1] = 1;
    const kept: number[] = [];
    for (let i = 0; i < n; i++) if (keep[i]) kept.push(p0 + i);
    return kept.length >= (ring ? 4 : 2) ? kept : [];
  }

  /** Shoelace area of kept points (a closed ring), square metres, in the shape's local plane. */
  areaM2(kept: number[]): number {
    const { b } = this;
    const mPerDegLon = METRES_PER_DEGREE * Math.cos((b.lat[kept[0]!]! * Math.PI) / 180);
    let twice = 0;
    for (let k = 1; k < kept.length; k++) {
      const a = kept[k - 1]!;
      const c = kept[k]!;
      twice += (b.lon[a]! - b.lon[kept[0]!]!) * (b.lat[c]! - b.lat[kept[0]!]!) - (b.lon[c]! - b.lon[kept[0]!]!) * (b.lat[a]! - b.lat[kept[0]!]!);
    }
    return (Math.abs(twice) / 2) * mPerDegLon * METRES_PER_DEGREE;
  }
}
