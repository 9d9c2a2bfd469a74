/**
 * A coverage's street network drawn as GeoJSON, for a map's background that needs no tile server:
 * a FeatureCollection of two MultiLineStrings, the streets open to cars (`kind: "road"`) and the
 * others (`kind: "path"`: open to walkers or cyclists only). Each edge's geometry is simplified by
 * Douglas–Peucker in the graph's metres, its ends kept, so the network stays connected on screen;
 * coordinates are written to 5 decimals (about a metre).
 */
import { unprojectLat, unprojectLon, type StreetGraph } from '../model/street-graph.js';
import { Layer, layerBits } from '../model/street-layers.js';
import { markKept, round5 } from './line-geometry.js';

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
      keep[0] = 1;
      keep[n - 1] = 1;
      markKept(g.geomX, g.geomY, p0, 0, n - 1, this.toleranceM * this.toleranceM, keep, this.stack);
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
