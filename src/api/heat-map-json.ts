/**
 * The heat-map response written straight into one Buffer (a 500 × 500 grid is about 1.3 MB of
 * JSON): Navitia's shape (navitia-heat-maps.md §2), `lines[i]` the longitude bands west to east,
 * `duration[j]` the latitude bands south to north, whole seconds or null.
 */
import type { Grid } from '../routing/raster.js';

export interface HeatMapBodyParts {
  grid: Grid;
  /** i * R + j, -1 for null */
  seconds: Int32Array;
  placeKey: 'from' | 'to';
  /** the place object, already JSON */
  placeJson: string;
  requestedDateTime: string;
  publishersJson: string;
  contextJson: string;
}

class BufferWriter {
  private buffer: Buffer;
  length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  text(s: string): void {
    this.reserve(s.length * 3);
    this.length += this.buffer.write(s, this.length, 'utf8');
  }

  /** A non-negative integer, digit by digit. */
  uint(v: number): void {
    this.reserve(11);
    const b = this.buffer;
    if (v < 10) {
      b[this.length++] = 48 + v;
      return;
    }
    let digits = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
    let pos = this.length + digits;
    this.length = pos;
    for (let t = v; digits > 0; digits--) {
      b[--pos] = 48 + (t % 10);
      t = Math.floor(t / 10);
    }
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Coordinates at full double precision (the shortest text that reads back the same). */
const num = (v: number): string => String(v);

export function writeHeatMatrix(w: BufferWriter, grid: Grid, seconds: Int32Array): void {
  const R = grid.resolution;
  const dLon = (grid.maxLon - grid.minLon) / R;
  const dLat = (grid.maxLat - grid.minLat) / R;
  w.text('{"line_headers":[');
  for (let j = 0; j < R; j++) {
    const min = grid.minLat + j * dLat;
    const max = grid.minLat + (j + 1) * dLat;
    w.text(`${j ? ',' : ''}{"cell_lat":{"min_lat":${num(min)},"center_lat":${num(min + dLat / 2)},"max_lat":${num(max)}}}`);
  }
  w.text('],"lines":[');
  for (let i = 0; i < R; i++) {
    const min = grid.minLon + i * dLon;
    const max = grid.minLon + (i + 1) * dLon;
    w.text(`${i ? ',' : ''}{"cell_lon":{"min_lon":${num(min)},"center_lon":${num(min + dLon / 2)},"max_lon":${num(max)}},"duration":[`);
    for (let j = 0; j < R; j++) {
      if (j) w.text(',');
      const v = seconds[i * R + j]!;
      if (v < 0) w.text('null');
      else w.uint(v);
    }
    w.text(']}');
  }
  w.text(']}');
}

/** The whole success body. */
export function heatMapBody(p: HeatMapBodyParts): Buffer {
  const R = p.grid.resolution;
  const w = new BufferWriter(R * R * 6 + R * 220 + p.placeJson.length * 3 + 4096);
  w.text('{"heat_maps":[{"heat_matrix":');
  writeHeatMatrix(w, p.grid, p.seconds);
  w.text(`,"${p.placeKey}":${p.placeJson},"requested_date_time":"${p.requestedDateTime}"}]`);
  w.text(`,"feed_publishers":${p.publishersJson},"links":[],"warnings":[],"context":${p.contextJson}}`);
  return w.done();
}

/** Only the matrix, for tests and tools. */
export function heatMatrixJson(grid: Grid, seconds: Int32Array): string {
  const w = new BufferWriter(grid.resolution * grid.resolution * 6 + 1024);
  writeHeatMatrix(w, grid, seconds);
  return w.done().toString('utf8');
}
