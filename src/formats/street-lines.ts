/**
 * A coverage's street network drawn as GeoJSON, for a map's background that needs no tile server:
 * a FeatureCollection of two MultiLineStrings, the streets open to cars (`kind: "road"`) and the
 * others (`kind: "path"`: open to walkers or cyclists only). Each edge's geometry is simplified by
 * Douglas–Peucker in the graph's metres, its ends kept, so the network stays connected on screen;
 * coordinates are written to 5 decimals (about a metre).
 */
import { unprojectLat, unprojectLon, type StreetGraph } from '../model/street-graph.js';
import { Layer, layerBits } from '../model/street-layers.js';

/** Default tolerance of the simplification, metres: below a pixel at street zoom levels. */
export const STREET_LINES_TOLERANCE_M = 5;

export function streetLinesGeoJson(g: StreetGraph, toleranceM = STREET_LINES_TOLERANCE_M): string {
  const writer = new StreetLinesWriter(g, toleranceM);
  writer.writeNext(g.edgeCount);
  return writer.geoJson();
}

/** The same, written a number of streets at a time, so that a server can give its event loop turns between them. */
export class StreetLinesWriter {
  private next = 0;
  private readonly roads: string[] = [];
  private readonly paths: string[] = [];
  private keep = new Uint8Array(64);
  private readonly stack: number[] = [];
  private readonly carBits = layerBits(Layer.Car);

  constructor(
    private readonly g: StreetGraph,
    private readonly toleranceM = STREET_LINES_TOLERANCE_M,
  ) {}

  get done(): boolean {
    return this.next >= this.g.edgeCount;
  }

  /** Write the next `count` streets (edges). */
  writeNext(count: number): void {
    const g = this.g;
    const end = Math.min(g.edgeCount, this.next + count);
    for (let e = this.next; e < end; e++) {
      const p0 = g.geomOffset[e]!;
      const n = g.geomOffset[e + 1]! - p0;
      if (n < 2) continue;
      if (this.keep.length < n) this.keep = new Uint8Array(n * 2);
      const keep = this.keep;
      keep.fill(0, 0, n);
      markKept(g, p0, n, this.toleranceM * this.toleranceM, keep, this.stack);
      let line = '[';
      for (let i = 0; i < n; i++) {
        if (!keep[i]) continue;
        const p = p0 + i;
        if (line.length > 1) line += ',';
        line += `[${round5(unprojectLon(g.projection, g.geomX[p]!))},${round5(unprojectLat(g.projection, g.geomY[p]!))}]`;
      }
      line += ']';
      ((g.edgeAccess[e]! & this.carBits) !== 0 ? this.roads : this.paths).push(line);
    }
    this.next = end;
  }

  /** The FeatureCollection of the streets written so far (all of them once `done`). */
  geoJson(): string {
    const feature = (kind: string, lines: string[]) =>
      `{"type":"Feature","properties":{"kind":"${kind}"},"geometry":{"type":"MultiLineString","coordinates":[${lines.join(',')}]}}`;
    return `{"type":"FeatureCollection","features":[${feature('road', this.roads)},${feature('path', this.paths)}]}`;
  }
}

/** Douglas–Peucker over points [p0, p0 + n): sets keep[i] for the points that stay (both ends always). */
function markKept(g: StreetGraph, p0: number, n: number, tolerance2: number, keep: Uint8Array, stack: number[]): void {
  keep[0] = 1;
  keep[n - 1] = 1;
  stack.length = 0;
  stack.push(0, n - 1);
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    const ax = g.geomX[p0 + a]!;
    const ay = g.geomY[p0 + a]!;
    const dx = g.geomX[p0 + b]! - ax;
    const dy = g.geomY[p0 + b]! - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD2 = tolerance2;
    for (let i = a + 1; i < b; i++) {
      const px = g.geomX[p0 + i]! - ax;
      const py = g.geomY[p0 + i]! - ay;
      // squared distance from the point to the segment a–b
      const t = len2 > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len2)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d2 = ex * ex + ey * ey;
      if (d2 > worstD2) {
        worstD2 = d2;
        worst = i;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push(a, worst, worst, b);
  }
}

function round5(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}
