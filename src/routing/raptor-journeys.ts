/**
 * RAPTOR keeping the journeys behind its labels, for skims (docs/analysis.md, "Skims"): the same
 * search as raptor.ts's (the same labels, the same travel times), whose labels each point at an
 * entry of a journey record (journey-paths.ts), from which the journey reaching a stop is read back
 * in parts (`journeyTo`). A search of its own, beside the engine's: the plain search, which every
 * map and matrix without skims runs, carries none of this (its hooks are empty).
 *
 * Of the journeys arriving as early, the search keeps the one with the fewest vehicles (RAPTOR's
 * rounds), then the one walking least: a trip a route scan rides that can be caught at a later stop
 * too is boarded there when its rider walked less to get there (every label of a round has as many
 * vehicles behind it, and the trip arrives downstream as it did).
 *
 * The record is kept from search to search until `forgetJourneys` (a departure window's minutes,
 * whose journeys are read once the window is done); it grows with the searches' boardings and
 * labels, a few entries per route scanned or stop reached.
 *
 * Departure searches only (the matrices' and accessibility's).
 */
import { RaptorSearch, type RaptorQuery, type RaptorResult, type ServiceDayOrigins } from './raptor.js';
import type { RaptorData, RouteTable } from './raptor-data.js';
import type { PrunedTransfers } from './transfer-pruning.js';
import { JourneyPaths, type JourneyRecord } from './journey-paths.js';
import { NO_PATH, TwoBestPaths } from './two-best-paths.js';
import type { TwoBest } from './two-best.js';
import { UNREACHED } from './unreached.js';

export class JourneyRaptorSearch extends RaptorSearch {
  private readonly paths = new JourneyPaths();
  /** the board entry of the trip a route scan rides */
  private boardPath = NO_PATH;
  /** the walked labels' journeys off the vehicle labels of stop `alightFrom` (-2: none yet this round): off its run `alightRun1`, off the other */
  private alightFrom = -2;
  private alightRun1 = 0;
  private alightPath1 = NO_PATH;
  private alightPath2 = NO_PATH;

  constructor(data: RaptorData, days: ServiceDayOrigins | Float64Array[], firstDay?: number, prunedBeforehand: PrunedTransfers | null = null) {
    super(data, days, firstDay, true, prunedBeforehand);
    this.keepsTies = true;
  }

  override search(q: RaptorQuery): RaptorResult {
    if (q.direction !== 'departure') throw new RangeError('journeys are kept for departure searches only');
    return super.search(q);
  }

  /** Start a new record of journeys. */
  forgetJourneys(): void {
    this.paths.reset();
  }

  /** The journey entry of the last search's best label at `stop` (reached: `vehicleSec[stop]` >= 0). */
  journeyPath(stop: number): number {
    return (this.bestVeh as TwoBestPaths).path1[stop]!;
  }

  /** The journey of entry `path` arriving at `arrival` (its search's seconds), read into `out` in parts. */
  readJourney(path: number, arrival: number, out: JourneyRecord): void {
    this.paths.read(path, arrival, this.walkedSlack, out);
  }

  protected override newLabels(n: number): TwoBest {
    return new TwoBestPaths(n);
  }

  protected override boarded(d: RouteTable, p: number, k: number, i: number, row: number, off: number, rtBase: number, run: number): void {
    const prev = this.walkPrev as TwoBestPaths;
    // the best label at p came off this very run: the trip was boarded with the other one
    const second = prev.run1[p] === run;
    const departure = off + d.departureSec[row + i]!;
    const trip = d.routeTripTrip[rtBase + k]!;
    this.ride(second ? this.paths.board(prev.path2[p]!, p, prev.time2[p]!, departure, trip, this.walkedSlack) : this.paths.board(prev.path1[p]!, p, prev.time1[p]!, departure, trip, this.walkedSlack));
  }

  /** The vehicle labels offered next are of the journey of board entry `path`. */
  private ride(path: number): void {
    this.boardPath = path;
    (this.vehRound as TwoBestPaths).path = path;
    (this.bestVeh as TwoBestPaths).path = path;
  }

  protected override caughtAgain(d: RouteTable, p: number, i: number, row: number, off: number, run: number): void {
    const prev = this.walkPrev as TwoBestPaths;
    const departure = off + d.departureSec[row + i]!;
    const second = prev.run1[p] === run;
    const walked = second ? prev.time2[p]! : prev.time1[p]!;
    if (walked === UNREACHED || walked > departure) return;
    const path = second ? prev.path2[p]! : prev.path1[p]!;
    const paths = this.paths;
    if (paths.walkedTo(path, p, walked, this.walkedSlack) >= paths.walkedBefore(this.boardPath)) return;
    this.ride(paths.board(path, p, walked, departure, paths.tripOf(this.boardPath), this.walkedSlack));
  }

  protected override transfer(keep: boolean): void {
    this.alightFrom = -2;
    super.transfer(keep);
  }

  protected override offerWalked(p: number, x: number, run: number): void {
    const path = this.walkedPath(p, x, run);
    (this.walkCur as TwoBestPaths).path = path;
    (this.bestWalk as TwoBestPaths).path = path;
    super.offerWalked(p, x, run);
  }

  /**
   * The journey of a walked label x at p off run `run`: the access, or off that run's vehicle label
   * at the stop it comes from (its two entries made once for all the connections walked from it).
   */
  private walkedPath(p: number, x: number, run: number): number {
    const from = this.from;
    if (from < 0) return this.paths.access(p, x - this.walkedSlack);
    if (from !== this.alightFrom) {
      const veh = this.vehRound as TwoBestPaths;
      this.alightFrom = from;
      this.alightRun1 = veh.run1[from]!;
      this.alightPath1 = this.paths.alight(veh.path1[from]!, from, veh.time1[from]!);
      this.alightPath2 = veh.time2[from] === UNREACHED ? NO_PATH : this.paths.alight(veh.path2[from]!, from, veh.time2[from]!);
    }
    return run === this.alightRun1 ? this.alightPath1 : this.alightPath2;
  }
}
