/**
 * What a RAPTOR search's labels are made of, for skims (docs/analysis.md, "Skims"): a record of the
 * journeys behind the labels, kept only when a query asks for it (`RaptorQuery.paths`), from which
 * the journey reaching a stop is read back in parts: the access, the time in vehicles, the walks
 * between stops, the vehicles boarded and their trips.
 *
 * Each label points at an entry of the record (two-best.ts's path1/path2):
 *   - an access entry: a round-0 walked label (the walk from the centre to its stop);
 *   - a board entry: a vehicle label, made when a route scan boards a trip: the walked label it
 *     boarded from (its entry and time), the boarding stop, the departure and the trip. The vehicle
 *     label's own time is its arrival, so one entry serves every stop the trip reaches;
 *   - an alight entry: a walked label after a vehicle (staying at the stop or walking a connection):
 *     the vehicle label it came from (its board entry, stop and arrival).
 * Each access and board entry also holds the seconds walked before it (to the first stop and
 * between stops), with which a route scan boards a trip where its riders walked least
 * (raptor-journeys.ts).
 *
 * Times are the search's seconds from t0 (departure searches: the clock), so the parts are
 * differences of times on the journey and add up to its arrival exactly; what is not riding,
 * walking to the first stop or walking between stops is waiting (board slack and a stop's own
 * transfer time included).
 *
 * The record grows with the search's boardings and labels (each a few per route scanned or stop
 * reached) and is reused from search to search.
 */
import { grownInt32 } from '../model/growable.js';

const ACCESS = 0;
const BOARD = 1;
const ALIGHT = 2;

/** A journey read back (`JourneyPaths.read`): seconds of each part, and the trips ridden in order. */
export interface JourneyRecord {
  accessSec: number;
  rideSec: number;
  transferSec: number;
  rides: number;
  /** the timetable's trip indices (an overlay's added trips past its trip count), the first ridden first, in `trips[0 .. rides)` */
  trips: Int32Array;
}

export class JourneyPaths {
  private kind = new Uint8Array(4096);
  private parent: Int32Array<ArrayBuffer> = new Int32Array(4096);
  private stop: Int32Array<ArrayBuffer> = new Int32Array(4096);
  /** board: the walked label's time; alight: the vehicle's arrival */
  private at: Int32Array<ArrayBuffer> = new Int32Array(4096);
  /** board: the departure */
  private departure: Int32Array<ArrayBuffer> = new Int32Array(4096);
  /** board: the trip */
  private trip: Int32Array<ArrayBuffer> = new Int32Array(4096);
  /** access and board: the seconds walked so far */
  private walk: Int32Array<ArrayBuffer> = new Int32Array(4096);
  private count = 0;

  /** Forget the previous search's journeys. */
  reset(): void {
    this.count = 0;
  }

  /** A round-0 walked label at `stop`, `walkSec` from the centre. */
  access(stop: number, walkSec: number): number {
    const e = this.next();
    this.kind[e] = ACCESS;
    this.parent[e] = -1;
    this.stop[e] = stop;
    this.walk[e] = walkSec;
    return e;
  }

  /**
   * The seconds walked by the journey of walked label `path` (at `stop`, time `walked`, which holds
   * the search's board slack `slack`: waiting, not walking).
   */
  walkedTo(path: number, stop: number, walked: number, slack: number): number {
    if (this.kind[path] === ACCESS) return this.walk[path]!;
    // off a vehicle: what its journey walked before boarding, and the connection to `stop`
    const before = this.walk[this.parent[path]!]!;
    return this.stop[path] === stop ? before : before + walked - slack - this.at[path]!;
  }

  /** The seconds board entry `path`'s journey walked before boarding. */
  walkedBefore(path: number): number {
    return this.walk[path]!;
  }

  /** The trip of board entry `path`. */
  tripOf(path: number): number {
    return this.trip[path]!;
  }

  /** Trip `trip` boarded at `stop`, leaving at `departure`, from the walked label `from` of time `walked` (board slack `slack` in it). */
  board(from: number, stop: number, walked: number, departure: number, trip: number, slack: number): number {
    const e = this.next();
    this.kind[e] = BOARD;
    this.parent[e] = from;
    this.stop[e] = stop;
    this.at[e] = walked;
    this.departure[e] = departure;
    this.trip[e] = trip;
    this.walk[e] = this.walkedTo(from, stop, walked, slack);
    return e;
  }

  /** Off the vehicle of board entry `from` at `stop`, arrived at `arrival`: the walked labels that follow. */
  alight(from: number, stop: number, arrival: number): number {
    const e = this.next();
    this.kind[e] = ALIGHT;
    this.parent[e] = from;
    this.stop[e] = stop;
    this.at[e] = arrival;
    return e;
  }

  /**
   * The journey of a vehicle label (its board entry `path`, arriving at `arrival`) in parts, into
   * `out`; `slack` the board slack the search added to walked labels.
   */
  read(path: number, arrival: number, slack: number, out: JourneyRecord): void {
    let ride = 0;
    let transfer = 0;
    let rides = 0;
    let x = arrival;
    let b = path;
    for (;;) {
      ride += x - this.departure[b]!;
      if (rides === out.trips.length) out.trips = grown(out.trips);
      out.trips[rides++] = this.trip[b]!;
      const from = this.parent[b]!;
      const walked = this.at[b]!;
      if (this.kind[from] === ACCESS) {
        out.accessSec = walked - slack;
        break;
      }
      // a connection to another stop is walked; staying at the stop (its transfer time) is waiting
      if (this.stop[from] !== this.stop[b]) transfer += walked - slack - this.at[from]!;
      x = this.at[from]!;
      b = this.parent[from]!;
    }
    out.rideSec = ride;
    out.transferSec = transfer;
    out.rides = rides;
    out.trips.subarray(0, rides).reverse();
  }

  private next(): number {
    if (this.count === this.kind.length) this.grow();
    return this.count++;
  }

  private grow(): void {
    const n = this.kind.length * 2;
    const kind = new Uint8Array(n);
    kind.set(this.kind);
    this.kind = kind;
    this.parent = grownInt32(this.parent, n);
    this.stop = grownInt32(this.stop, n);
    this.at = grownInt32(this.at, n);
    this.departure = grownInt32(this.departure, n);
    this.trip = grownInt32(this.trip, n);
    this.walk = grownInt32(this.walk, n);
  }
}

const grown = (a: Int32Array) => grownInt32(a, Math.max(8, a.length * 2));

/** A record to read journeys into. */
export function journeyRecord(): JourneyRecord {
  return { accessSec: 0, rideSec: 0, transferSec: 0, rides: 0, trips: new Int32Array(8) };
}
