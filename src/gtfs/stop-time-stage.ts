/**
 * Stop times as read from stop_times.txt (any row order), then put in trip and sequence order,
 * completed (untimed stops interpolated) and checked, trip by trip.
 *
 * Staging columns hold one entry per row read; `finish()` returns the final per-trip layout.
 */
import { growFloat64, growInt32, growUint8 } from '../model/growable.js';
import { NO_TIME, INTERPOLATED_BIT, WINDOW_BIT } from '../model/timetable.js';
import type { LoadReport } from './load-report.js';
import { crowFlyMetres } from '../util/geodesy.js';

export interface StagedTrip {
  /** Index of the trip in the loader's trip list. */
  trip: number;
  /** Staging rows of the trip, in stop_sequence order. */
  rows: Int32Array;
}

export class StopTimeStage {
  readonly trip = growInt32(1 << 16);
  readonly sequence = growInt32(1 << 16);
  readonly arrivalSec = growInt32(1 << 16);
  readonly departureSec = growInt32(1 << 16);
  readonly stop = growInt32(1 << 16);
  readonly pickDrop = growUint8(1 << 16);
  /** shape_dist_traveled, NaN when absent; only filled when the column exists somewhere. */
  readonly distance = growFloat64(1 << 10);
  /** Line in stop_times.txt of each row, for messages. */
  readonly line = growInt32(1 << 16);
  private hasDistance = false;

  add(trip: number, sequence: number, arr: number, dep: number, stop: number, pickDrop: number, dist: number, line: number): void {
    this.trip.push(trip);
    this.sequence.push(sequence);
    this.arrivalSec.push(arr);
    this.departureSec.push(dep);
    this.stop.push(stop);
    this.pickDrop.push(pickDrop);
    this.line.push(line);
    if (!Number.isNaN(dist) || this.hasDistance) {
      if (!this.hasDistance) {
        // First distance seen: back-fill the rows read so far with NaN.
        this.hasDistance = true;
        this.distance.grow(this.trip.length);
        this.distance.data.fill(NaN, 0, this.trip.length - 1);
        this.distance.length = this.trip.length - 1;
      }
      this.distance.push(dist);
    }
  }

  /**
   * Drop the staging columns. The loader calls it once the timetable is built, because stream
   * listeners of the feed reader may keep the loader (and so this stage) reachable for a while.
   */
  dispose(): void {
    for (const column of [this.trip, this.sequence, this.arrivalSec, this.departureSec, this.stop, this.pickDrop, this.distance, this.line]) column.clear();
  }

  get rowCount(): number {
    return this.trip.length;
  }

  /**
   * Rows grouped by trip (trips in ascending order), each group sorted by stop_sequence. Rows with a
   * duplicated stop_sequence in a trip are reported and left out.
   */
  rowsByTrip(tripCount: number, report: LoadReport, fileName: (row: number) => string): { offsets: Uint32Array; rows: Int32Array } {
    const n = this.rowCount;
    const trip = this.trip.data;
    const seq = this.sequence.data;
    const offsets = new Uint32Array(tripCount + 1);
    for (let i = 0; i < n; i++) offsets[trip[i]! + 1]!++;
    for (let t = 0; t < tripCount; t++) offsets[t + 1]! += offsets[t]!;
    const rows = new Int32Array(n);
    const fill = offsets.slice(0, tripCount);
    for (let i = 0; i < n; i++) rows[fill[trip[i]!]!++] = i;
    // Insertion sort by sequence within each trip: feeds are almost always sorted already.
    for (let t = 0; t < tripCount; t++) {
      const s = offsets[t]!;
      const e = offsets[t + 1]!;
      for (let i = s + 1; i < e; i++) {
        const r = rows[i]!;
        const key = seq[r]!;
        let j = i - 1;
        while (j >= s && seq[rows[j]!]! > key) {
          rows[j + 1] = rows[j]!;
          j--;
        }
        rows[j + 1] = r;
      }
      for (let i = s + 1; i < e; i++) {
        if (seq[rows[i]!] === seq[rows[i - 1]!]) {
          report.problem(fileName(rows[i]!), this.line.data[rows[i]!]!, 'duplicate stop_sequence in a trip, row skipped');
          rows[i] = -1;
        }
      }
    }
    return { offsets, rows };
  }

  /**
   * Complete the times of one trip's rows in place: copy arrival/departure into each other when one
   * is missing, interpolate untimed runs by distance (shape_dist_traveled when given on the run, else
   * straight-line distance between stops, else evenly). Returns a reason when the trip is unusable.
   */
  completeTimes(rows: Int32Array, stopLon: Float64Array, stopLat: Float64Array): string | null {
    const arr = this.arrivalSec.data;
    const dep = this.departureSec.data;
    const pd = this.pickDrop.data;
    const stop = this.stop.data;
    const k = rows.length;
    for (let i = 0; i < k; i++) {
      const r = rows[i]!;
      if (arr[r] === NO_TIME && dep[r] !== NO_TIME) arr[r] = dep[r]!;
      else if (dep[r] === NO_TIME && arr[r] !== NO_TIME) dep[r] = arr[r]!;
    }
    if (arr[rows[0]!] === NO_TIME || arr[rows[k - 1]!] === NO_TIME) return 'first or last stop time of the trip has no time';
    let a = 0;
    for (let i = 1; i < k; i++) {
      if (arr[rows[i]!] === NO_TIME) continue;
      if (i > a + 1) this.interpolate(rows, a, i, stopLon, stopLat, stop, arr, dep, pd);
      a = i;
    }
    for (let i = 0; i < k; i++) {
      const r = rows[i]!;
      if (dep[r]! < arr[r]!) return 'departure before arrival at a stop';
      if (i === 0) continue;
      const p = rows[i - 1]!;
      // Flex windows may overlap, or open before the previous one: the ride is possible as long as
      // the later stop can still be reached after the earlier one opens.
      const backwards = (pd[r]! | pd[p]!) & WINDOW_BIT ? dep[r]! < arr[p]! : arr[r]! < dep[p]!;
      if (backwards) return 'times go backwards along the trip';
    }
    return null;
  }

  /** Fill rows strictly between timed positions a and b. */
  private interpolate(
    rows: Int32Array,
    a: number,
    b: number,
    lon: Float64Array,
    lat: Float64Array,
    stop: Int32Array,
    arr: Int32Array,
    dep: Int32Array,
    pd: Uint8Array,
  ): void {
    const cumulative = new Float64Array(b - a + 1);
    const dist = this.hasDistance ? this.distance.data : null;
    let useShape = dist !== null;
    if (dist) for (let i = a; i <= b; i++) if (Number.isNaN(dist[rows[i]!]!)) useShape = false;
    for (let i = a + 1; i <= b; i++) {
      const step = useShape
        ? dist![rows[i]!]! - dist![rows[i - 1]!]!
        : crowFlyMetres(lon[stop[rows[i - 1]!]!]!, lat[stop[rows[i - 1]!]!]!, lon[stop[rows[i]!]!]!, lat[stop[rows[i]!]!]!);
      cumulative[i - a] = cumulative[i - a - 1]! + Math.max(0, step);
    }
    const total = cumulative[b - a]!;
    const t0 = dep[rows[a]!]!;
    const t1 = arr[rows[b]!]!;
    for (let i = a + 1; i < b; i++) {
      const fraction = total > 0 ? cumulative[i - a]! / total : (i - a) / (b - a);
      const t = Math.round(t0 + (t1 - t0) * fraction);
      const r = rows[i]!;
      arr[r] = t;
      dep[r] = t;
      pd[r]! |= INTERPOLATED_BIT;
    }
  }
}
