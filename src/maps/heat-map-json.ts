/**
 * The heat-map response written straight into one Buffer (a 500 × 500 grid is about 1.3 MB of
 * JSON): Navitia's shape (docs/api.md, Heat maps), `lines[i]` the longitude bands west to east,
 * `duration[j]` the latitude bands south to north, whole seconds or null.
 */
import type { Grid } from '../routing/grid.js';
import type { PercentileMap } from '../routing/heat-map.js';
import { warningsJson, type Warning } from './map-warnings.js';
import { DIFFERENCE_NULL, type Comparison, type DifferenceMap } from './difference-map.js';

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
  /** Navitia's `warnings` (map-warnings.ts) */
  warnings: readonly Warning[];
  /** a departure window's maps, one per percentile (then `seconds` is not written) */
  percentiles?: readonly PercentileMap[];
  /** a difference map's maps, one per percentile or one (then neither `seconds` nor `percentiles` is written) */
  difference?: { comparison: Comparison; maps: readonly DifferenceMap[] };
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

  /**
   * `count` durations from `values[from]`, comma-separated: whole seconds, or null where negative; or,
   * `signed`, differences: whole seconds of either sign, null at DIFFERENCE_NULL.
   */
  durations(values: Int32Array, from: number, count: number, signed = false): void {
    this.reserve(count * 12);
    const b = this.buffer;
    let at = this.length;
    for (let k = 0; k < count; k++) {
      if (k > 0) b[at++] = 44; // ,
      let v = values[from + k]!;
      if (signed ? v === DIFFERENCE_NULL : v < 0) {
        b[at] = 110; // null
        b[at + 1] = 117;
        b[at + 2] = 108;
        b[at + 3] = 108;
        at += 4;
        continue;
      }
      if (v < 0) {
        b[at++] = 45; // -
        v = -v;
      }
      let digits = 1;
      for (let t = v; t >= 10; t = (t / 10) | 0) digits++;
      at += digits;
      for (let t = v, pos = at; digits > 0; digits--) {
        b[--pos] = 48 + (t % 10);
        t = (t / 10) | 0;
      }
    }
    this.length = at;
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Coordinates at full double precision (the shortest text that reads back the same). */
const num = (v: number): string => String(v);

export function writeHeatMatrix(w: BufferWriter, grid: Grid, seconds: Int32Array, signed = false): void {
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
    w.durations(seconds, i * R, R, signed);
    w.text(']}');
  }
  w.text(']}');
}

/**
 * The whole success body: Navitia's one map, or a departure window's one map per percentile; for a
 * difference map the same shape, the differences in `duration`, and each map's `difference` object.
 */
export function heatMapBody(p: HeatMapBodyParts): Buffer {
  const R = p.grid.resolution;
  // a single departure's one map, or a window's map per percentile, each with its percentile
  const maps: readonly { seconds: Int32Array; percentile?: number; counts?: DifferenceMap['counts'] }[] = p.difference?.maps ?? p.percentiles ?? [{ seconds: p.seconds }];
  const w = new BufferWriter(maps.length * (R * R * 6 + R * 220 + p.placeJson.length * 3) + 4096);
  w.text('{"heat_maps":[');
  maps.forEach((map, k) => {
    w.text(k > 0 ? ',{"heat_matrix":' : '{"heat_matrix":');
    writeHeatMatrix(w, p.grid, map.seconds, p.difference !== undefined);
    const percentile = map.percentile === undefined ? '' : `,"percentile":${map.percentile}`;
    const difference = p.difference && map.counts ? `,"difference":${differenceJson(p.difference.comparison, map.counts)}` : '';
    w.text(`,"${p.placeKey}":${p.placeJson},"requested_date_time":"${p.requestedDateTime}"${percentile}${difference}}`);
  });
  w.text(']');
  w.text(`,"feed_publishers":${p.publishersJson},"links":[],"warnings":${warningsJson(p.warnings)},"context":${p.contextJson}}`);
  return w.done();
}

/** A difference map's `difference` object: the two sides (levels or scenarios) and how many cells changed how. */
function differenceJson(c: Comparison, counts: DifferenceMap['counts']): string {
  return JSON.stringify({
    ...c.quoted,
    lost_cells: counts.lost,
    gained_cells: counts.gained,
    slower_cells: counts.slower,
    faster_cells: counts.faster,
  });
}

/** Only the matrix, for tests and tools. */
export function heatMatrixJson(grid: Grid, seconds: Int32Array): string {
  const w = new BufferWriter(grid.resolution * grid.resolution * 6 + 1024);
  writeHeatMatrix(w, grid, seconds);
  return w.done().toString('utf8');
}
