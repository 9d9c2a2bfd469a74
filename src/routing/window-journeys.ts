/**
 * The journeys behind a departure window's improvements, for skims (window-transit.ts keeps them
 * when a query asks for its breakdown): per improvement (a stop reached earlier at some minute), the
 * parts of the journey that reached it (journey-paths.ts) and the trips it rode. A target's value
 * at a minute comes from one improvement or from the direct path (window-percentiles.ts), so its
 * journey is read here by that improvement's index.
 *
 * Per-engine scratch, grown with the improvements a window makes.
 */
import { grownInt32 } from '../model/growable.js';
import type { JourneyRecord } from './journey-paths.js';

export class WindowJourneys {
  accessSec: Int32Array<ArrayBuffer> = new Int32Array(1024);
  rideSec: Int32Array<ArrayBuffer> = new Int32Array(1024);
  transferSec: Int32Array<ArrayBuffer> = new Int32Array(1024);
  rides: Int32Array<ArrayBuffer> = new Int32Array(1024);
  /** improvement x rode trips[tripsFrom[x] .. tripsFrom[x] + rides[x]) */
  tripsFrom: Int32Array<ArrayBuffer> = new Int32Array(1024);
  trips: Int32Array<ArrayBuffer> = new Int32Array(4096);
  private tripCount = 0;

  /** Forget the last window's journeys. */
  reset(): void {
    this.tripCount = 0;
  }

  /** Improvement x's journey. */
  keep(x: number, journey: JourneyRecord): void {
    if (x >= this.accessSec.length) this.grow(x + 1);
    this.accessSec[x] = journey.accessSec;
    this.rideSec[x] = journey.rideSec;
    this.transferSec[x] = journey.transferSec;
    this.rides[x] = journey.rides;
    this.tripsFrom[x] = this.tripCount;
    if (this.tripCount + journey.rides > this.trips.length) this.trips = grownInt32(this.trips, Math.max(2 * this.trips.length, this.tripCount + journey.rides));
    this.trips.set(journey.trips.subarray(0, journey.rides), this.tripCount);
    this.tripCount += journey.rides;
  }

  scratchBytes(): number {
    return this.accessSec.byteLength + this.rideSec.byteLength + this.transferSec.byteLength + this.rides.byteLength + this.tripsFrom.byteLength + this.trips.byteLength;
  }

  private grow(atLeast: number): void {
    const n = Math.max(atLeast, 2 * this.accessSec.length);
    this.accessSec = grownInt32(this.accessSec, n);
    this.rideSec = grownInt32(this.rideSec, n);
    this.transferSec = grownInt32(this.transferSec, n);
    this.rides = grownInt32(this.rides, n);
    this.tripsFrom = grownInt32(this.tripsFrom, n);
  }
}
