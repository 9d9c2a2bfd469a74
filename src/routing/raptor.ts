/**
 * One-to-all RAPTOR (Delling, Pajor, Werneck, "Round-Based Public Transit Routing", Transportation
 * Science 49(3), 2015), as the heat maps need it (docs/api.md, Heat maps): from the stops reached
 * from the centre, the best time at which every stop is reached *by a vehicle*, within a bound.
 *
 * Round k rides a k-th vehicle:
 *   1. mark the routes serving a stop whose "walked" label (ready to board) improved in round k-1,
 *      from the first such stop of each route;
 *   2. scan each marked route once per service day that can matter (its runs that day meet the
 *      window), keeping the earliest catchable trip as the current trip: alighting gives "vehicle"
 *      labels, a good enough walked label switches to an earlier trip (binary search, then skip
 *      the trips not running that day or not boardable there);
 *   3. from every stop whose vehicle label improved: stay there (0 s, or the stop's own
 *      min_transfer_time) or walk a connection (transfers.txt, footpaths), giving the walked labels
 *      of round k.
 * Round 0 is the access: walked labels at the access stops, t0 ± access time.
 *
 * Board slack (R5's BOARD_SLACK_SECONDS, OpenTripPlanner's boardSlack): a rider must be at the stop
 * `boardSlackSec` before the vehicle leaves, at the first boarding and at every transfer. It is added
 * where the search meets a boarding: departure searches add it to every walked label (the access and
 * each transfer, which lead to a boarding), arrival searches, which read journeys backwards and meet
 * the boarding after the vehicle, to every vehicle label (a boarding time; the transfer or the end
 * leg that follows it then starts that much earlier). Alighting needs no slack.
 *
 * Two label families per stop, as in Navitia: vehicle labels (what the heat map wants) and walked
 * labels (what the next round boards from), each pruned against its own best.
 *
 * Transfers change vehicles: getting off a run and back on the same run (a trip on a day) is not a
 * transfer, so a walked label cannot board the run it came from. Each label set therefore keeps, per
 * stop, the best label and its run, and the best label of any other run ("two best of distinct
 * runs"): the label usable to board run R is the first unless it came from R.
 *
 * Minimum transfers m: a journey must ride at least m + 1 vehicles. Rounds below m + 1 keep labels
 * of exactly k vehicles and prune only within their round; from round m + 1 on, labels are pruned
 * against the best of the rounds that count (standard RAPTOR). With m = 0 this is plain RAPTOR.
 *
 * Both directions share one core. Labels are "search seconds" x >= 0 from t0: departure searches use
 * x = t - t0 (earliest arrival), arrival searches x = t0 - t (latest departure) and read every route
 * backwards: positions and trips reversed, departures and arrivals swapped, connections reversed.
 * A stop time τ of a run on service day d is at x = off_d + dir·τ with off_d = dir·(origin(d) - t0)
 * and dir = ±1, so the scan below is the textbook forward scan in both directions.
 *
 * Realtime (raptor-overlay.ts): a query may carry the overlay of a freshness level. Its changed runs
 * are skipped in the timetable's routes on their day, and its own routes (one run each, valid on one
 * day) are marked and scanned beside the timetable's in every round, with the same code.
 *
 * A scenario's overlay may visit new stops (overlay-stops.ts), numbered from data.stopCount: the
 * timetable's routes and connections never reach them, a rider stays at one for 0 s, and the
 * overlay's own connections from and to them are walked beside the timetable's (a pass of their
 * own after the timetable's, so that a search without new stops runs the same loop as before).
 * The per-stop scratch keeps room for MAX_OVERLAY_STOPS of them.
 *
 * Scratch memory is allocated once in the constructor and reset through touched lists: a search
 * allocates nothing proportional to the network (the overlay's marks grow with the largest overlay
 * seen, once). The labels are two-best.ts's, the marked routes route-marks.ts's, and a window's
 * bounds range-bounds.ts's.
 *
 * The common query (a departure search where every journey counts, on the timetable alone, every
 * stop usable, not a window's minute) is handed to a lean search of one label per stop
 * (best-only-search.ts), made on the first such query: the same answers, about twice as fast. The
 * scan here serves the others: arrival searches, fewest-transfer limits, overlays, stop masks,
 * wheelchairs, windows and journeys.
 */
import { CAN_ALIGHT, CAN_BOARD, footpathSec, NO_STAY, transferSec, type RaptorData, type RouteTable } from './raptor-data.js';
import { runChanged, type RaptorOverlay } from './raptor-overlay.js';
import { connectionRows, MAX_OVERLAY_STOPS, type OverlayStops } from './overlay-stops.js';
import { connectionPairs, pruneTransfers, routeGaps, type OverlayNeeds, type PrunedTransfers, type RouteGaps } from './transfer-pruning.js';
import { foldBounds, type RangeBounds } from './range-bounds.js';
import { NOT_MARKED, RouteMarks } from './route-marks.js';
import { NO_RUN, TwoBest } from './two-best.js';
import { UNREACHED } from './unreached.js';
import { FirstRoundMarks } from './first-round-marks.js';
import { LaterBoardings } from './later-boardings.js';
import { DayRuns, firstLeaving } from './day-runs.js';
import { BestOnlySearch, LEAN_MAX_ROUNDS } from './best-only-search.js';
import { WorkCounts } from './work-counts.js';
import type { RaptorQuery, RaptorResult, RaptorStats, ServiceDayOrigins } from './raptor-types.js';

/** The search never looks further than this from t0 (Navitia caps its RAPTOR bound at 24 h). */
export const MAX_HORIZON_SEC = 86400;
/** Walking speeds whose needed connections a search keeps (a server's requests mostly share one or two). */
const PRUNED_SPEEDS_KEPT = 4;
/** Service days considered per time zone, at most (t0's day, the days before whose runs pass midnight, the next). */
const MAX_DAYS_PER_ZONE = 16;

export type { RaptorQuery, RaptorResult, RaptorStats, ServiceDayOrigins } from './raptor-types.js';

export class RaptorSearch {
  readonly stats: RaptorStats = { rounds: 0, routesScanned: 0, reachedStops: 0 };
  /** the work of every search so far (`stats` is the last search's) */
  readonly work = new WorkCounts();
  private readonly origins: Float64Array[];
  private readonly originFirstDay: number;

  // walked labels of the previous and the current round, with their touched stops
  protected walkPrev: TwoBest;
  protected walkCur: TwoBest;
  // vehicle labels of the current round
  protected readonly vehRound: TwoBest;
  // best labels over the rounds that count; bestVeh.time1 is the result
  protected readonly bestVeh: TwoBest;
  protected readonly bestWalk: TwoBest;
  private readonly vehicleSec: Int32Array;
  /** per timetable route, its running trips of the last few days (day-runs.ts) */
  private readonly dayRuns: DayRuns;
  /**
   * Hand the common query to the lean search (best-only-search.ts), made on its first such query
   * (off: the general scan for every search, the same answers slower; tests compare both).
   */
  leanSearches = true;
  private lean: BestOnlySearch | null = null;
  /** a departure window's first-round routes, minute by minute (first-round-marks.ts) */
  private readonly firstRound = new FirstRoundMarks();
  /** a window's last boardings of each route at its later minutes (later-boardings.ts) */
  private readonly laterBoardings = new LaterBoardings();
  // routes marked for the current round, of the timetable and of the overlay
  private readonly baseMarks: RouteMarks;
  private overlayMarks: RouteMarks;
  // service days of the search: zone z uses slots [zoneSlotStart[z], zoneSlotStart[z+1])
  private readonly zoneSlotStart: Int32Array;
  /** x of stop time 0 that day: dir·(origin - t0) */
  private readonly slotOffset: Int32Array;
  /** that day in the calendars' bitsets: its index, word and bit */
  private readonly slotDay: Int32Array;
  private readonly slotWord: Int32Array;
  private readonly slotBit: Int32Array;
  private readonly slotCapacity: number;
  private generation = 0;

  // the current search (set by `search`, read by the scans)
  protected dir = 1;
  private limit = 0;
  private across = false;
  private trackBest = false;
  /**
   * Only a stop's best label counts (a search where every journey counts, keeping no ties): a
   * label of another run, never earlier, could only board the best's run again, which staying
   * aboard does as early in an earlier round; so a label improves a stop or is dropped.
   */
  private bestOnly = false;
  private walkingSpeed = 1;
  /** board slack added to walked labels (departure searches) and to vehicle labels (arrival searches) */
  protected walkedSlack = 0;
  private vehicleSlack = 0;
  private tripAllowed: Uint8Array | null = null;
  private stopAllowed: Uint8Array | null = null;
  private wheelchair = false;
  private overlay: RaptorOverlay | null = null;
  /** the overlay's new stops and their connections (null: none) */
  private overlayStops: OverlayStops | null = null;
  /** stops a search may label: the timetable's and room for an overlay's new ones */
  private readonly stopCapacity: number;
  /** wheelchair_boarding per stop, the new stops' 0 (unknown: not accessible, as a feed's stop without the field) */
  private readonly stopWheelchair: Uint8Array;
  /** a query's `stopAllowed` of the timetable's stops stretched over the new ones (allowed) */
  private readonly allowedScratch: Uint8Array;
  /** the window's bounds and this minute's shift to the reference (null: a single search) */
  private range: RangeBounds | null = null;
  private rangeShift = 0;
  /** the round whose labels are being made (0: the access), and the range bounds of its labels (null: a single search) */
  private round = 0;
  /** the vehicles a journey of the current search rides: at least (below: rounds that do not count), at most */
  private minVehicles = 1;
  private maxVehicles = 1;
  private walkedBound: Int32Array | null = null;
  private vehicleBound: Int32Array | null = null;
  /** the bound of a single search's walked labels: none (every stop UNREACHED), made on its first transfer */
  private noBound: Int32Array | null = null;
  /**
   * A search keeping its journeys (raptor-journeys.ts): of the journeys arriving as early it keeps
   * the one of fewest vehicles, then of least walking, which labels a window's shortcuts drop decide
   * (a later minute's label bounding the later rounds, and the first round's lists), so it takes none.
   */
  protected keepsTies = false;
  /** the connections the current search walks: the ones its walking speed needs (null: every one) */
  private pruned: PrunedTransfers | null = null;
  /** with an overlay, the connections its routes need beside the pruned ones, and the routes they were made for */
  private needs: OverlayNeeds | null = null;
  /** the connections needed at the last few walking speeds, and the routes' bounds they are made from */
  private readonly prunedBySpeed: PrunedTransfers[] = [];
  private gaps: RouteGaps | null = null;
  /** the stop whose vehicle labels the walked labels being offered come from (-1: the access) */
  protected from = -1;

  /**
   * @param data     the compiled timetable (shared memory)
   * @param days     service-day origins per time zone: a `ServiceDays`, or its `originSec` arrays
   * @param firstDay day number of `days[z][0]` when `days` is a bare array (default: the calendars' first day)
   */
  constructor(
    readonly data: RaptorData,
    days: ServiceDayOrigins | Float64Array[],
    firstDay?: number,
    /** leave out the connections no journey needs (off: every connection, the same answers slower) */
    private readonly prune = true,
    /** the connections needed at one walking speed, pruned beforehand (HeatMapData.prunedTransfers) */
    private readonly prunedBeforehand: PrunedTransfers | null = null,
  ) {
    this.origins = Array.isArray(days) ? days : days.originSec;
    this.originFirstDay = Array.isArray(days) ? (firstDay ?? data.serviceFirstDay) : days.firstDay;
    if (this.origins.length < data.timezoneCount) {
      throw new Error(`RaptorSearch: ${this.origins.length} service-day origin arrays for ${data.timezoneCount} time zones; pass new ServiceDays(tt)`);
    }
    const n = data.stopCount + MAX_OVERLAY_STOPS;
    this.stopCapacity = n;
    this.stopWheelchair = new Uint8Array(n);
    this.stopWheelchair.set(data.stopWheelchair);
    this.allowedScratch = new Uint8Array(n);
    this.walkPrev = this.newLabels(n);
    this.walkCur = this.newLabels(n);
    this.vehRound = this.newLabels(n);
    this.bestVeh = this.newLabels(n);
    this.bestWalk = this.newLabels(n);
    this.vehicleSec = new Int32Array(n).fill(-1);
    this.dayRuns = new DayRuns(data);
    const zones = Math.max(1, data.timezoneCount);
    this.zoneSlotStart = new Int32Array(zones + 1);
    this.slotOffset = new Int32Array(zones * MAX_DAYS_PER_ZONE);
    this.slotDay = new Int32Array(zones * MAX_DAYS_PER_ZONE);
    this.slotWord = new Int32Array(zones * MAX_DAYS_PER_ZONE);
    this.slotBit = new Int32Array(zones * MAX_DAYS_PER_ZONE);
    this.slotCapacity = zones * MAX_DAYS_PER_ZONE;
    // the timetable's running trips come from the day runs: its marks keep none
    this.baseMarks = new RouteMarks(data.routeCount, 0);
    this.overlayMarks = new RouteMarks(0, this.slotCapacity);
  }

  /** The labels of `n` stops (a search keeping its journeys keeps them with its labels: raptor-journeys.ts). */
  protected newLabels(n: number): TwoBest {
    return new TwoBest(n);
  }

  /**
   * Hooks of a search keeping its journeys (raptor-journeys.ts), nothing here: trip k of route
   * table `d` boarded at stop p (virtual position i, its stop times from `row`, its day's offset
   * `off`, its route-trips from `rtBase`, its run `run`); and the trip ridden, caught at p too.
   */
  protected boarded(_d: RouteTable, _p: number, _k: number, _i: number, _row: number, _off: number, _rtBase: number, _run: number): void {}
  protected caughtAgain(_d: RouteTable, _p: number, _i: number, _row: number, _off: number, _run: number): void {}

  /**
   * The connections a search at `speed` needs (transfer-pruning.ts): those pruned beforehand at
   * their speed, or made on its first search at that speed and kept for the next few speeds; null
   * when `prune` is off (tests compare both).
   */
  private transfersFor(speed: number): PrunedTransfers | null {
    if (!this.prune) return null;
    if (this.prunedBeforehand?.speed === speed) return this.prunedBeforehand;
    const known = this.prunedBySpeed.find((t) => t.speed === speed);
    if (known) return known;
    this.gaps ??= routeGaps(this.data);
    const made = pruneTransfers(this.data, this.gaps, speed);
    if (this.prunedBySpeed.unshift(made) > PRUNED_SPEEDS_KEPT) this.prunedBySpeed.pop();
    return made;
  }

  /**
   * The connections a search of `q` walks when they are pruned at a speed of its own (not the
   * timetable's, pruned beforehand): made here if not held. Null when its search walks every
   * connection (wheelchair, stops left out) or those pruned beforehand.
   */
  prunedFor(q: Pick<RaptorQuery, 'walkingSpeed' | 'stopAllowed' | 'wheelchair'>): PrunedTransfers | null {
    if (!this.prune || q.stopAllowed !== null || q.wheelchair || this.prunedBeforehand?.speed === q.walkingSpeed) return null;
    return this.transfersFor(q.walkingSpeed);
  }

  /** Keep `t`, pruned by another thread (a matrix's first step), unless connections at its speed are held. */
  adoptPruned(t: PrunedTransfers): void {
    if (this.prunedBeforehand?.speed === t.speed || this.prunedBySpeed.some((known) => known.speed === t.speed)) return;
    if (this.prunedBySpeed.unshift(t) > PRUNED_SPEEDS_KEPT) this.prunedBySpeed.pop();
  }

  search(q: RaptorQuery): RaptorResult {
    this.reset();
    const d = this.data;
    const fwd = q.direction === 'departure';
    this.dir = fwd ? 1 : -1;
    this.limit = Math.max(0, Math.min(Math.floor(q.maxDurationSec), MAX_HORIZON_SEC));
    this.walkingSpeed = q.walkingSpeed;
    const slack = Math.max(0, Math.floor(q.boardSlackSec));
    this.walkedSlack = fwd ? slack : 0;
    this.vehicleSlack = fwd ? 0 : slack;
    this.tripAllowed = q.tripAllowed;
    this.wheelchair = q.wheelchair;
    const overlay = q.overlay ?? null;
    this.overlay = overlay;
    this.overlayStops = overlay?.stops ?? null;
    this.stopAllowed = this.allowedOver(q.stopAllowed, overlay);
    if (overlay && overlay.routes.routeCount > this.overlayMarks.capacity) {
      this.overlayMarks = new RouteMarks(Math.max(overlay.routes.routeCount, 2 * this.overlayMarks.capacity), this.slotCapacity);
    }
    const minVehicles = Math.max(0, Math.floor(q.minTransfers)) + 1;
    const maxVehicles = Math.max(0, Math.floor(q.maxTransfers)) + 1;
    this.minVehicles = minVehicles;
    this.maxVehicles = maxVehicles;
    this.bestOnly = !this.keepsTies && minVehicles === 1;
    // the bounds behind the pruning hold for the timetable's trips (and any subset) and every stop
    // (transfer-pruning.ts); an overlay's routes need the connections to their stops beside them
    this.pruned = q.stopAllowed === null && !q.wheelchair ? this.transfersFor(q.walkingSpeed) : null;
    this.needs = this.pruned !== null && overlay !== null ? overlay.needs : null;
    this.range = q.range?.bounds ?? null;
    this.rangeShift = q.range?.shiftSec ?? 0;
    if (this.range && this.range.rounds < maxVehicles) throw new RangeError(`range bounds of ${this.range.rounds} rounds for a search of ${maxVehicles}`);
    if (this.range) this.laterBoardings.size(maxVehicles + 1, d.routeCount);
    this.enterRound(0);
    if (this.limit === 0 || minVehicles > maxVehicles) return this.result();
    this.chooseServiceDays(Math.floor(q.t0));
    // the common query, by the lean search (best-only-search.ts)
    if (this.leanSearches && fwd && this.bestOnly && maxVehicles <= LEAN_MAX_ROUNDS && this.range === null && overlay === null && q.stopAllowed === null && !q.wheelchair && this.pruned !== null) {
      const { zoneSlotStart, slotOffset, slotDay, slotWord, slotBit } = this;
      this.lean ??= new BestOnlySearch(d, { zoneSlotStart, slotOffset, slotDay, slotWord, slotBit }, this.dayRuns, this.stats, this.work);
      return this.lean.search(q, maxVehicles, this.limit, slack, this.pruned);
    }
    const firstRound = this.firstRoundOf(q);

    // round 0: the access stops, walked to
    this.from = -1;
    this.across = false;
    this.trackBest = minVehicles === 1;
    for (let i = 0; i < q.count; i++) this.offerWalked(q.accessStops[i]!, Math.max(0, q.accessSec[i]!) + this.walkedSlack, NO_RUN);
    this.swapWalked();

    // run ids: the timetable's runs first, then the overlay's
    const overlayRunSpace = this.slotCapacity * d.routeTripCount;
    for (let round = 1; round <= maxVehicles && this.walkPrev.count > 0; round++) {
      this.stats.rounds = round;
      this.enterRound(round);
      this.across = round >= minVehicles;
      // 1. routes through the stops walked to in the previous round, from their first such stop
      const prev = this.walkPrev;
      //    (a window's first round after its first minute: the routes where a trip leaves an access stop new that minute)
      const listed = round === 1 && firstRound >= 0;
      if (listed) this.markFirstRound(firstRound);
      for (let j = 0; j < prev.count; j++) {
        const p = prev.touched[j]!;
        if (p < d.stopCount && !listed) this.baseMarks.markAt(d, p, fwd);
        if (overlay) this.overlayMarks.markAt(overlay.routes, p, fwd);
      }
      // 2. scan them
      this.scanMarked(d, this.baseMarks, 0, overlay);
      if (overlay) this.scanMarked(overlay.routes, this.overlayMarks, overlayRunSpace, null);
      if (this.range) this.foldWalked(round - 1);
      this.walkPrev.clear();
      // 3. transfers (none needed after the last round)
      this.trackBest = round >= minVehicles - 1;
      this.transfer(round < maxVehicles);
      this.swapWalked();
    }
    if (this.range) this.foldWalked(this.round);
    this.walkPrev.clear();
    return this.result();
  }

  /**
   * The stops a search may board and alight at: `allowed` (of the timetable's stops; null: all), or,
   * with an overlay visiting stops past its end (a scenario's new stops), a copy allowing those too.
   */
  private allowedOver(allowed: Uint8Array | null, overlay: RaptorOverlay | null): Uint8Array | null {
    const stops = overlay ? overlay.routes.stopRouteOffset.length - 1 : this.data.stopCount;
    if (stops > this.stopCapacity) throw new RangeError(`an overlay of ${stops - this.data.stopCount} new stops: a search has room for ${MAX_OVERLAY_STOPS}`);
    if (allowed === null || allowed.length >= stops) return allowed;
    const scratch = this.allowedScratch;
    scratch.set(allowed);
    scratch.fill(1, allowed.length, stops);
    return scratch;
  }

  /**
   * A window's labels of `round` bound the later minutes' (range-bounds.ts) where a later minute's
   * label at least as early leaves nothing to find: the access's, and those of the rounds that count.
   * Below them, a label off another run may still board the run a later minute's label came off and
   * make a journey that counts, where staying aboard that run would not.
   */
  private bounded(round: number): boolean {
    return round === 0 || round >= this.minVehicles;
  }

  /**
   * The walked labels of `round` (in `walkPrev`) into the range bounds: of that round, and of the
   * later ones where they dominate those within a search (`foldBounds`): the access's when every
   * journey counts (they are off no run), and those of the rounds that count.
   */
  private foldWalked(round: number): void {
    if (!this.bounded(round)) return;
    const forward = !this.keepsTies && (round > 0 || this.minVehicles === 1);
    foldBounds(this.walkPrev, this.range!.walked, round, forward ? this.maxVehicles : round, this.rangeShift);
  }

  /** Labels of `round` are made next: its range bounds read by `offerWalked` and `offerVehicle`. */
  private enterRound(round: number): void {
    this.round = round;
    const bounded = this.range !== null && this.bounded(round);
    this.walkedBound = bounded ? this.range!.walked[round]! : null;
    this.vehicleBound = bounded ? this.range!.vehicle[round]! : null;
  }

  /**
   * A window's minute (`q.range`) and its first round's routes (first-round-marks.ts): at the
   * window's first minute searched, the lists of its earlier minutes made, and -1 (every route
   * through the access marked); at an earlier minute, the minute's number, whose list is marked.
   * -1 too for a single search, where the first round is not bounded (a fewest-transfers limit:
   * there a trip the later minute caught offers labels of its own), and for a search keeping ties.
   */
  private firstRoundOf(q: RaptorQuery): number {
    const range = this.range;
    if (range === null || !this.bounded(1) || this.keepsTies) return -1;
    const minute = Math.round(this.rangeShift / range.stepSec);
    const lists = this.firstRound;
    if (lists.window === range.window && minute < lists.firstMinute) return minute;
    lists.start(range.window, minute);
    this.listFirstRound(q, Math.floor(q.t0));
    lists.finish();
    return -1;
  }

  /**
   * The first round's lists of a window's earlier minutes: for each access stop, ready at `a` (this
   * minute's search seconds; at minute m, a + shift(this) - shift(m) in this minute's), each trip of
   * each route through it leaving in [a - shift, a) is new at the minute its rider is first ready for it.
   */
  private listFirstRound(q: RaptorQuery, t0: number): void {
    const d = this.data;
    const dir = this.dir;
    const fwd = dir === 1;
    const shift = this.rangeShift;
    const step = this.range!.stepSec;
    const lists = this.firstRound;
    const { stopRouteOffset, stopRoutes, stopRoutePos, routeStopOffset, routeStopTimeOffset, routeTripOffset, routeDayBits, serviceWords } = d;
    const times = fwd ? d.departureSec : d.arrivalSec;
    // the days of the earlier minutes: reaching back as far as the first minute
    this.chooseServiceDays(t0, shift);
    for (let j = 0; j < q.count; j++) {
      const p = q.accessStops[j]!;
      if (p >= d.stopCount) continue;
      const a = Math.max(0, q.accessSec[j]!) + this.walkedSlack;
      for (let e = stopRouteOffset[p]!; e < stopRouteOffset[p + 1]!; e++) {
        const r = stopRoutes[e]!;
        const S = routeStopOffset[r + 1]! - routeStopOffset[r]!;
        const i = fwd ? stopRoutePos[e]! : S - 1 - stopRoutePos[e]!;
        const K = routeTripOffset[r + 1]! - routeTripOffset[r]!;
        const stBase = fwd ? routeStopTimeOffset[r]! : routeStopTimeOffset[r + 1]! - 1;
        const tz = d.routeTimezone[r]!;
        for (let slot = this.zoneSlotStart[tz]!; slot < this.zoneSlotStart[tz + 1]!; slot++) {
          if (((routeDayBits[r * serviceWords + this.slotWord[slot]!]! >>> this.slotBit[slot]!) & 1) === 0) continue;
          const off = this.slotOffset[slot]!;
          // the trips leaving from a - shift on (the first found by its stop time before the day's offset), before a
          for (let k = firstLeaving(times, dir, stBase, S, i, 0, K, a - shift - off); k < K; k++) {
            const x = off + dir * times[stBase + dir * (k * S + i)]!;
            if (x >= a) break;
            lists.add(Math.floor((x + shift - a) / step), r, i);
          }
        }
      }
    }
    this.chooseServiceDays(t0);
  }

  /** Bytes of a window's scratch kept here (its first round's lists, grown to the largest window's, and its later boardings). */
  windowScratchBytes(): number {
    return this.firstRound.bytes() + this.laterBoardings.bytes();
  }

  /** Mark the routes of minute m's first-round list. */
  private markFirstRound(m: number): void {
    const { offset, routes, positions } = this.firstRound;
    for (let j = offset[m]!; j < offset[m + 1]!; j++) this.baseMarks.markRoute(routes[j]!, positions[j]!);
  }

  /** Scan the marked routes of a table (and unmark them); `masked`: skip its changed runs. */
  private scanMarked(table: RouteTable, marks: RouteMarks, runSpace: number, masked: RaptorOverlay | null): void {
    const { mark, list } = marks;
    const { routeStopOffset } = table;
    for (let j = 0; j < marks.count; j++) {
      const r = list[j]!;
      const after = routeStopOffset[r + 1]! - routeStopOffset[r]! - 1 - mark[r]!;
      // a route marked at its last stop only (in the search's direction): boarded there, it goes nowhere
      if (after > 0) {
        // counted here, not in the scan: a counter there changes how the scan is compiled
        this.work.visits += after + 1;
        this.stats.routesScanned++;
        this.scanRoute(table, marks, r, mark[r]!, runSpace, masked);
      }
      mark[r] = NOT_MARKED;
    }
    marks.count = 0;
  }

  /**
   * Scan route r of `d` from virtual position `start`, once per service day whose runs can matter.
   * Its runs are numbered from `runSpace`; `masked`: the overlay whose changed runs are skipped.
   */
  private scanRoute(d: RouteTable, marks: RouteMarks, r: number, start: number, runSpace: number, masked: RaptorOverlay | null): void {
    // a route the overlay takes every run of (a scenario's removed or retimed route): nothing to board
    if (masked?.routeGone?.[r] === 1) return;
    const dir = this.dir;
    const fwd = dir === 1;
    const limit = this.limit;
    const S = d.routeStopOffset[r + 1]! - d.routeStopOffset[r]!;
    const K = d.routeTripOffset[r + 1]! - d.routeTripOffset[r]!;
    // virtual position i of virtual trip k: stop routeStops[stopBase + dir*i], stop time stBase + dir*(k*S + i),
    // route-trip rtBase + dir*k
    const stopBase = fwd ? d.routeStopOffset[r]! : d.routeStopOffset[r + 1]! - 1;
    const stBase = fwd ? d.routeStopTimeOffset[r]! : d.routeStopTimeOffset[r + 1]! - 1;
    const rtBase = fwd ? d.routeTripOffset[r]! : d.routeTripOffset[r + 1]! - 1;
    const boardTimes = fwd ? d.departureSec : d.arrivalSec;
    const alightTimes = fwd ? d.arrivalSec : d.departureSec;
    const alightBit = fwd ? CAN_ALIGHT : CAN_BOARD;
    const { routeStops, boardAlight, routeTripCount, routeDayBits } = d;
    const { stopWheelchair } = this;
    const dayBase = r * d.serviceWords;
    const { stopAllowed, wheelchair, vehicleSlack, rangeShift } = this;
    // the later minutes' labels; a single search's, in a round that counts: the second best over the
    // rounds (the best of another run), at or past which no label passes `offerVehicle`
    const vehicleBound = this.vehicleBound ?? (this.across ? (this.bestOnly ? this.bestVeh.time1 : this.bestVeh.time2) : null);
    const prev = this.walkPrev;
    const prevTime1 = prev.time1;
    const lo = Math.min(dir * d.routeMinSec[r]!, dir * d.routeMaxSec[r]!);
    const hi = Math.max(dir * d.routeMinSec[r]!, dir * d.routeMaxSec[r]!);
    const tz = d.routeTimezone[r]!;
    // a window's minute, in a round its later minutes bound (a search keeping ties takes no shortcut):
    // their last boarding of this route, and this minute's, noted for the earlier minutes
    const later = this.vehicleBound !== null && !this.keepsTies && d === this.data && masked === null ? this.laterBoardings : null;
    const window = this.range?.window ?? 0;
    const round = this.round;
    let lastTrip = -1;
    let lastPosition = 0;
    let lastDay = 0;
    for (let slot = this.zoneSlotStart[tz]!; slot < this.zoneSlotStart[tz + 1]!; slot++) {
      const off = this.slotOffset[slot]!;
      if (off + hi < 0 || off + lo >= limit) continue; // the route runs outside the window that day
      if (((routeDayBits[dayBase + this.slotWord[slot]!]! >>> this.slotBit[slot]!) & 1) === 0) continue; // or not at all
      const runs = d === this.data ? this.dayRuns.of(r, this.slotDay[slot]!, this.slotWord[slot]!, this.slotBit[slot]!, dir, K, rtBase) : -1;
      // trips after the last one running that day never count
      const running = runs < 0 ? this.runningTrips(d, marks, r, slot, K, rtBase) : K > 0 ? this.dayRuns.last[runs + K - 1]! + 1 : 0;
      const runBase = runSpace + slot * routeTripCount + rtBase; // run of virtual trip k: runBase + dir*k
      const day = this.slotDay[slot]!;
      const laterTrip = later !== null ? later.trip(window, round, r, day) : -1;
      const laterPosition = laterTrip >= 0 ? later!.position(round, r) : S;
      let trip = -1;
      let row = 0; // stBase + dir*trip*S
      // the trip aboard is one a later minute rode as early (later-boardings.ts): its arrivals are bounded
      let bounded = false;
      for (let i = start; i < S; i++) {
        const p = routeStops[stopBase + dir * i]!;
        const usable = (stopAllowed === null || stopAllowed[p] !== 0) && (!wheelchair || stopWheelchair[p] === 1);
        if (trip >= 0 && usable && !bounded) {
          const st = row + dir * i;
          if (boardAlight[st]! & alightBit) {
            const x = off + dir * alightTimes[st]! + vehicleSlack;
            if (x >= limit) trip = -1; // runs on past the bound: nothing further on this trip counts
            // offerVehicle's first test, made here: most arrivals of a window's minute end on it
            else if (vehicleBound === null || x + rangeShift < vehicleBound[p]!) this.offerVehicle(p, x, runBase + dir * trip);
          }
        }
        const w = prevTime1[p]!;
        if (w === UNREACHED || !usable) continue;
        if (trip >= 0) {
          // only an earlier trip than the current one can help, and trips never overtake:
          // nothing to search when the current trip leaves before w, or the one before it does
          if (w > off + dir * boardTimes[row + dir * i]!) continue;
          if (trip === 0 || off + dir * boardTimes[row + dir * (i - S)]! < w) {
            this.caughtAgain(d, p, i, row, off, runBase + dir * trip);
            continue;
          }
          // the trip before is not running that day: nothing to search either when the last one
          // before it that runs leaves before w (a route's weekday and weekend trips interleave)
          if (runs >= 0) {
            const before = this.dayRuns.last[runs + trip - 1]!;
            if (before < 0 || off + dir * boardTimes[stBase + dir * (before * S + i)]! < w) continue;
          }
        }
        const below = trip >= 0 ? trip : running;
        // aboard nothing yet: no trip when the day's last one has left (trips never overtake), a
        // common case that a look at one stop time settles
        if (trip < 0 && (below === 0 || dir * boardTimes[stBase + dir * ((below - 1) * S + i)]! < w - off)) continue;
        let k = this.earliestTrip(d, masked, stBase, rtBase, S, 0, below, i, w - off, slot, runs);
        if (k >= 0 && runBase + dir * k === prev.run1[p]) {
          // the best label came off this very run: board it with the other label, or take the next trip
          if (prev.time2[p]! > off + dir * boardTimes[stBase + dir * (k * S + i)]!) k = this.earliestTrip(d, masked, stBase, rtBase, S, k + 1, below, i, w - off, slot, runs);
        }
        if (k >= 0) {
          trip = k;
          row = stBase + dir * k * S;
          bounded = laterTrip >= 0 && k >= laterTrip && i >= laterPosition;
          lastTrip = k;
          lastPosition = i;
          lastDay = day;
          this.boarded(d, p, k, i, row, off, rtBase, runBase + dir * k);
        }
      }
    }
    if (later !== null && lastTrip >= 0) later.note(window, round, r, lastDay, lastTrip, lastPosition);
  }

  /** 1 + the last virtual trip of route r running on the slot's day (0 when none), computed once per search. */
  private runningTrips(d: RouteTable, marks: RouteMarks, r: number, slot: number, K: number, rtBase: number): number {
    const key = r * this.slotCapacity + slot;
    if (marks.runningStamp[key] === this.generation) return marks.runningEnd[key]!;
    const { routeTripService, serviceBits, serviceWords } = d;
    const word = this.slotWord[slot]!;
    const bit = this.slotBit[slot]!;
    const dir = this.dir;
    let k = K;
    while (k > 0 && ((serviceBits[routeTripService[rtBase + dir * (k - 1)]! * serviceWords + word]! >>> bit) & 1) === 0) k--;
    marks.runningStamp[key] = this.generation;
    marks.runningEnd[key] = k;
    return k;
  }

  /**
   * The first virtual trip k in [from, below) of a route (its stop times from stBase, its
   * route-trips from rtBase, S stops) leaving virtual position i at a virtual stop time >= `target`
   * (before the day offset) that may be boarded there that day, and is not a run `masked` changes; -1 if none.
   */
  private earliestTrip(d: RouteTable, masked: RaptorOverlay | null, stBase: number, rtBase: number, S: number, from: number, below: number, i: number, target: number, slot: number, runs: number): number {
    const dir = this.dir;
    const fwd = dir === 1;
    const times = fwd ? d.departureSec : d.arrivalSec;
    const boardBit = fwd ? CAN_BOARD : CAN_ALIGHT;
    this.work.tripSearches++;
    const a = firstLeaving(times, dir, stBase, S, i, from, below, target);
    const last = this.limit - this.slotOffset[slot]!; // virtual stop time of the bound
    const word = this.slotWord[slot]!;
    const bit = this.slotBit[slot]!;
    const { boardAlight, routeTripService, routeTripTrip, serviceBits, serviceWords } = d;
    const { tripWheelchair } = this.data;
    const { tripAllowed, wheelchair } = this;
    // with the day's running trips (day-runs.ts), from one to the next
    const next = this.dayRuns.next;
    for (let k = runs >= 0 && a < below ? next[runs + a]! : a; k < below; k = runs >= 0 ? (k + 1 < below ? next[runs + k + 1]! : below) : k + 1) {
      const st = stBase + dir * (k * S + i);
      if (dir * times[st]! >= last) return -1;
      if (!(boardAlight[st]! & boardBit)) continue;
      const rt = rtBase + dir * k;
      if (((serviceBits[routeTripService[rt]! * serviceWords + word]! >>> bit) & 1) === 0) continue;
      const t = routeTripTrip[rt]!;
      if (tripAllowed !== null && tripAllowed[t] === 0) continue;
      if (wheelchair && tripWheelchair[t] !== 1) continue;
      if (masked !== null && runChanged(masked, t, this.slotDay[slot]!)) continue;
      return k;
    }
    return -1;
  }

  /** Stop p reached at x by run `run` in the current round. */
  protected offerVehicle(p: number, x: number, run: number): void {
    // a later minute was there as early in this round
    if (this.vehicleBound !== null && x + this.rangeShift >= this.vehicleBound[p]!) return;
    if (this.across) {
      const best = this.bestVeh;
      const t1 = best.time1[p]!;
      if (this.bestOnly && x >= t1) return;
      const first = t1 === UNREACHED;
      if (!best.offer(p, x, run)) return;
      if (first) best.touched[best.count++] = p;
    }
    const round = this.vehRound;
    if (round.time1[p] === UNREACHED) round.touched[round.count++] = p;
    round.offer(p, x, run);
  }

  /** Walked labels from this round's vehicle labels: stay at the stop or walk a connection. */
  protected transfer(keep: boolean): void {
    const d = this.data;
    const veh = this.vehRound;
    const fwd = this.dir === 1;
    const { stopStaySec, transferOffset, transferTo, transferInOffset, transferInEdge, transferInFrom } = d;
    const speed = this.walkingSpeed;
    const slack = this.walkedSlack;
    const pruned = this.pruned;
    const needs = this.needs;
    const stopCount = d.stopCount;
    const { limit, rangeShift } = this;
    // a single search: no later minute bounds its labels, but in a round that counts, none at or
    // past the second best over the rounds (the best of another run) passes `offerWalked`
    const bound = this.walkedBound ?? (this.across ? (this.bestOnly ? this.bestWalk.time1 : this.bestWalk.time2) : (this.noBound ??= new Int32Array(this.stopCapacity).fill(UNREACHED)));
    // the second label (off another run) walks on only where it can lead somewhere the first cannot:
    // it boards the first's run again, which every journey that counts (no fewest-transfers limit)
    // does better by staying aboard, in an earlier round; a search keeping ties walks it (its journeys)
    const secondWalks = this.keepsTies || this.minVehicles > 1;
    const pairs = pruned !== null ? connectionPairs(pruned, fwd) : null;
    for (let j = 0; keep && j < veh.count; j++) {
      const p = veh.touched[j]!;
      this.from = p;
      const x1 = veh.time1[p]!;
      const run1 = veh.run1[p]!;
      const x2 = secondWalks ? veh.time2[p]! : UNREACHED;
      const run2 = veh.run2[p]!;
      // an overlay's new stop: stay 0 s; its connections are the overlay's (below)
      const stay = p < stopCount ? stopStaySec[p]! : 0;
      if (stay !== NO_STAY) {
        this.offerWalked(p, x1 + stay + slack, run1);
        if (x2 !== UNREACHED) this.offerWalked(p, x2 + stay + slack, run2);
      }
      if (pruned !== null) {
        const offset = fwd ? pruned.outOffset : pruned.inOffset;
        const end = 2 * offset[p + 1]!;
        this.work.relaxations += offset[p + 1]! - offset[p]!;
        // offerWalked's first tests, made here for the best label: most relaxations end on them,
        // and the second label (never earlier than the first) cannot pass where the first fails.
        // The label is x1 + slack + the walk: below the later minutes' (shifted) and below the limit.
        const base = x1 + slack;
        const shifted = base + rangeShift;
        const room = limit - base;
        for (let k = 2 * offset[p]!; k < end; k += 2) {
          const q = pairs![k]!;
          const sec = pairs![k + 1]!;
          if (shifted + sec >= bound[q]! || sec >= room) continue;
          this.offerWalked(q, base + sec, run1);
          if (x2 !== UNREACHED) this.offerWalked(q, x2 + slack + sec, run2);
        }
        if (needs !== null && p < stopCount) this.offerNeeded(needs, p, x1, run1, x2, run2);
        continue;
      }
      if (p >= stopCount) continue;
      const e0 = fwd ? transferOffset[p]! : transferInOffset[p]!;
      const e1 = fwd ? transferOffset[p + 1]! : transferInOffset[p + 1]!;
      this.work.relaxations += e1 - e0;
      for (let k = e0; k < e1; k++) {
        const e = fwd ? k : transferInEdge[k]!;
        const q = fwd ? transferTo[k]! : transferInFrom[k]!;
        const sec = transferSec(d, e, speed) + slack;
        this.offerWalked(q, x1 + sec, run1);
        if (x2 !== UNREACHED) this.offerWalked(q, x2 + sec, run2);
      }
    }
    if (keep && this.overlayStops !== null) this.overlayTransfers(this.overlayStops);
    // vehicle labels of a round that counts bound that round's and the later rounds'
    if (this.range && this.bounded(this.round)) foldBounds(veh, this.range.vehicle, this.round, this.keepsTies ? this.round : this.maxVehicles, this.rangeShift);
    veh.clear();
  }

  /** The walked labels of the connections from stop p an overlay's routes need beside the pruned ones (`needs`). */
  private offerNeeded(needs: OverlayNeeds, p: number, x1: number, run1: number, x2: number, run2: number): void {
    const fwd = this.dir === 1;
    const offset = fwd ? needs.outOffset : needs.inOffset;
    const other = fwd ? needs.outTo : needs.inFrom;
    const edge = fwd ? needs.outEdge : needs.inEdge;
    for (let k = offset[p]!; k < offset[p + 1]!; k++) {
      const sec = transferSec(this.data, edge[k]!, this.walkingSpeed) + this.walkedSlack;
      const q = other[k]!;
      this.offerWalked(q, x1 + sec, run1);
      if (x2 !== UNREACHED) this.offerWalked(q, x2 + sec, run2);
    }
  }

  /** The walked labels of the overlay's connections from or to its new stops, from this round's vehicle labels (arrival searches: backwards). */
  private overlayTransfers(stops: OverlayStops): void {
    const veh = this.vehRound;
    const { offset, other, lengthM } = connectionRows(stops, this.dir === -1);
    const speed = this.walkingSpeed;
    const slack = this.walkedSlack;
    for (let j = 0; j < veh.count; j++) {
      const p = veh.touched[j]!;
      this.from = p;
      const x1 = veh.time1[p]!;
      const run1 = veh.run1[p]!;
      const x2 = veh.time2[p]!;
      const run2 = veh.run2[p]!;
      for (let k = offset[p]!; k < offset[p + 1]!; k++) {
        const sec = footpathSec(lengthM[k]!, speed) + slack;
        const q = other[k]!;
        this.offerWalked(q, x1 + sec, run1);
        if (x2 !== UNREACHED) this.offerWalked(q, x2 + sec, run2);
      }
    }
  }

  /** A walked label x (off run `run`) at stop p for the current round. */
  protected offerWalked(p: number, x: number, run: number): void {
    if (x >= this.limit) return;
    // a later minute was there as early in this round
    if (this.walkedBound !== null && x + this.rangeShift >= this.walkedBound[p]!) return;
    const cur = this.walkCur;
    const best = this.bestWalk;
    if (this.across) {
      // pruned against the best of the rounds that count; what improves it improves this round's too
      const t1 = best.time1[p]!;
      if (this.bestOnly && x >= t1) return;
      const first = t1 === UNREACHED;
      if (!best.offer(p, x, run)) return;
      if (first) best.touched[best.count++] = p;
      if (cur.time1[p] === UNREACHED) cur.touched[cur.count++] = p;
      cur.offer(p, x, run);
    } else {
      const firstHere = cur.time1[p] === UNREACHED;
      if (!cur.offer(p, x, run)) return;
      if (firstHere) cur.touched[cur.count++] = p;
      if (this.trackBest) {
        const first = best.time1[p] === UNREACHED;
        if (best.offer(p, x, run) && first) best.touched[best.count++] = p;
      }
    }
  }

  /** The current round's walked labels become the previous round's (which must be clear). */
  private swapWalked(): void {
    const labels = this.walkPrev;
    this.walkPrev = this.walkCur;
    this.walkCur = labels;
  }

  /**
   * The service days whose runs may fall in the window, per time zone: day i of zone z runs its stop
   * time τ at origins[z][i] + τ; it is kept when [minTimeSec, maxTimeSec] then meets the window
   * (reaching back `reach` seconds before t0: the days of a departure window's earlier minutes).
   */
  private chooseServiceDays(t0: number, reach = 0): void {
    const d = this.data;
    const dir = this.dir;
    const limit = this.limit;
    const ov = this.overlay?.routes;
    const minTime = ov && ov.routeCount > 0 ? Math.min(d.minTimeSec, ov.minTimeSec) : d.minTimeSec;
    const maxTime = ov && ov.routeCount > 0 ? Math.max(d.maxTimeSec, ov.maxTimeSec) : d.maxTimeSec;
    const daysBack = Math.ceil(Math.max(0, maxTime) / 86400) + 2;
    let n = 0;
    for (let z = 0; z < d.timezoneCount; z++) {
      this.zoneSlotStart[z] = n;
      const origins = this.origins[z]!;
      const today = lastAtOrBefore(origins, t0);
      const zoneEnd = n + MAX_DAYS_PER_ZONE;
      for (let i = today - daysBack; i <= today + 2 && n < zoneEnd; i++) {
        if (i < 0 || i >= origins.length) continue;
        const day = this.originFirstDay + i - d.serviceFirstDay; // index in the calendars' bitsets
        if (day < 0 || day >= d.serviceDayCount) continue;
        const off = dir * (origins[i]! - t0);
        const lo = Math.min(off + dir * minTime, off + dir * maxTime);
        const hi = Math.max(off + dir * minTime, off + dir * maxTime);
        if (hi < -reach || lo >= limit) continue;
        this.slotOffset[n] = off;
        this.slotDay[n] = day;
        this.slotWord[n] = day >>> 5;
        this.slotBit[n] = day & 31;
        n++;
      }
    }
    this.zoneSlotStart[d.timezoneCount] = n;
  }

  /** Forget the previous search (only what it touched). */
  private reset(): void {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.overlayMarks.runningStamp.fill(0); // once every 2^32 searches
      this.generation = 1;
    }
    const best = this.bestVeh;
    for (let j = 0; j < best.count; j++) this.vehicleSec[best.touched[j]!] = -1;
    best.clear();
    this.bestWalk.clear();
    // normally already clear: only a search interrupted by an exception leaves these behind
    this.walkPrev.clear();
    this.walkCur.clear();
    this.vehRound.clear();
    this.baseMarks.clear();
    this.overlayMarks.clear();
    const s = this.stats;
    s.rounds = s.routesScanned = s.reachedStops = 0;
  }

  private result(): RaptorResult {
    this.work.searches++;
    this.work.rounds += this.stats.rounds;
    this.work.routesScanned += this.stats.routesScanned;
    const best = this.bestVeh;
    for (let j = 0; j < best.count; j++) {
      const p = best.touched[j]!;
      this.vehicleSec[p] = best.time1[p]!;
    }
    this.stats.reachedStops = best.count;
    // one entry per stop of the search: the timetable's, and its overlay's new ones (the scratch has room for more)
    const stops = this.overlayStops?.count ?? this.data.stopCount;
    return { vehicleSec: this.vehicleSec.subarray(0, stops), reached: best.touched, reachedCount: best.count };
  }
}

/** Index of the last origin <= t (-1 when t is before the first). */
function lastAtOrBefore(origins: Float64Array, t: number): number {
  let a = 0;
  let b = origins.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (origins[mid]! <= t) a = mid + 1;
    else b = mid;
  }
  return a - 1;
}

