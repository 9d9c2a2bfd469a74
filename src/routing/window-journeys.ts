/**
 * The journeys behind a departure window's improvements, for skims (window-transit.ts keeps them
 * when a query asks for its breakdown): per improvement (a stop reached earlier at some minute), the
 * entry of the journey that reached it in the window's journey record (raptor-journeys.ts keeps the
 * record of every minute's search until the window ends) and its arrival in that search. A target's
 * value at a minute comes from one improvement or from the direct path (window-percentiles.ts): the
 * journeys of the improvements a percentile takes are read, not every improvement's.
 *
 * Per-engine scratch, grown with the improvements a window makes.
 */
import { grownInt32 } from '../model/growable.js';
import type { JourneyRecord } from './journey-paths.js';

/** Reads a journey of the window's record: its entry and its arrival, into a record of parts. */
export type JourneyReader = (path: number, arrival: number, out: JourneyRecord) => void;

export class WindowJourneys {
  private path: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private arrival: Int32Array<ArrayBuffer> = new Int32Array(1024);

  constructor(private readonly reader: JourneyReader) {}

  /** Improvement x's journey: its entry, and its arrival in its minute's search. */
  keep(x: number, path: number, arrival: number): void {
    if (x >= this.path.length) {
      const n = Math.max(x + 1, 2 * this.path.length);
      this.path = grownInt32(this.path, n);
      this.arrival = grownInt32(this.arrival, n);
    }
    this.path[x] = path;
    this.arrival[x] = arrival;
  }

  /** Improvement x's journey in parts, into `out`. */
  read(x: number, out: JourneyRecord): void {
    this.reader(this.path[x]!, this.arrival[x]!, out);
  }

  scratchBytes(): number {
    return this.path.byteLength + this.arrival.byteLength;
  }
}
