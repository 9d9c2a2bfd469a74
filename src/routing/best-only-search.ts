/**
 * RAPTOR for the common query, lean: a departure search from the access stops where every journey
 * counts (no fewest-transfers limit), no tie is kept, on the timetable alone (no overlay), with
 * every stop usable, and not a window's minute: what a heat map, a matrix's one departure or a
 * one-to-all search asks. raptor.ts hands it such searches and keeps the general scan for the rest;
 * the answers are the same (tests compare both on real feeds), about twice as fast.
 *
 * Why the same: where only a stop's best label counts (raptor.ts, `bestOnly`), a label is either
 * below the best over the rounds or dropped, so each stop needs one vehicle label per round and one
 * walked label, with the run it came off, where the general scan keeps two of each. The second
 * walked label serves one case: the earliest trip a stop's best label can board is the run it came
 * off. The general scan then boards that run with the second label; here the next trip is taken.
 * Neither improves a stop: that run was ridden on from there in an earlier round (or was left for
 * an earlier trip further on, or dropped past the limit), whose arrivals the best over the rounds
 * holds already, and later trips arrive later still; further on, both board the same earliest
 * trips. Apart from that, this is the general scan with its branches for the other cases taken out,
 * and labels in plain arrays the JIT keeps close. And a round's labels need no arrays of their own:
 * a stop's walked (vehicle) label of a round is its best walked (vehicle) label at that round's
 * end, so a byte per stop stamps the round, read where a label per round was and never cleared.
 *
 * Search seconds x = t - t0; a stop time τ of service day slot s is at slotOffset[s] + τ.
 */
import { CAN_ALIGHT, CAN_BOARD, NO_STAY, type RaptorData } from './raptor-data.js';
import { firstLeaving, type DayRuns } from './day-runs.js';
import { DayStopRoutes, type StopRouteLists } from './day-stop-routes.js';
import type { RaptorQuery, RaptorResult, RaptorStats, SearchDays } from './raptor-types.js';
import { connectionPairs, type PrunedTransfers } from './transfer-pruning.js';
import { NO_RUN } from './two-best.js';
import { NOT_MARKED } from './route-marks.js';
import { UNREACHED } from './unreached.js';
import type { WorkCounts } from './work-counts.js';

/** The most rounds a lean search runs (its stamps are bytes, 0 for none): raptor.ts hands it no more. */
export const LEAN_MAX_ROUNDS = 254;

export class BestOnlySearch {
  /** the best vehicle label of each stop over the rounds (the result), and the stops it holds, in the order reached */
  private readonly bestVeh: Int32Array;
  private readonly reached: Uint32Array;
  private reachedCount = 0;
  /** the best walked label over the rounds, and the stops it holds */
  private readonly bestWalk: Int32Array;
  private readonly walked: Uint32Array;
  private walkedCount = 0;
  /**
   * The round whose walked labels a stop's best walked label is (its round + 1, 0 for none: see
   * `round`), with the run it came off; the stops of the previous round's (boarded from) and of
   * the current one's. A stop's walked label of a round is its best walked label at the round's
   * end, so a stamp of a byte tells it: the scan reads a byte per stop where a label per round
   * read four, and nothing is cleared between rounds.
   */
  private readonly walkStamp: Uint8Array;
  private readonly walkRun: Int32Array;
  private prevList: Uint32Array;
  private prevCount = 0;
  private curList: Uint32Array;
  private curCount = 0;
  /** likewise the vehicle labels of the current round (stamp: the round), their runs and stops */
  private readonly vehStamp: Uint8Array;
  private readonly vehRun: Int32Array;
  private readonly vehList: Uint32Array;
  private vehCount = 0;
  /** the current round: vehicle labels stamped with it, walked labels for the next with it + 1 (round 0: the access) */
  private round = 0;
  /** the routes marked this round, each from its first (forward) position to scan */
  private readonly mark: Int32Array;
  private readonly markList: Uint32Array;
  private markCount = 0;
  /** per route, 1 when every trip lets riders off at every position past its first (all of rnv's): no flag read there */
  private readonly alightsEverywhere: Uint8Array;
  /** the result: vehicle seconds per stop, -1 where unreached */
  private readonly vehicleSec: Int32Array;

  /** the routes each stop is marked for on the search's days (day-stop-routes.ts), and this search's */
  private readonly stopRoutes: DayStopRoutes;
  private lists: StopRouteLists | null = null;

  // the current search, and its work (added to `work` at its end)
  private visits = 0;
  private lookUps = 0;
  private relaxations = 0;
  private limit = 0;
  private slack = 0;
  private tripAllowed: Uint8Array | null = null;

  constructor(
    private readonly data: RaptorData,
    private readonly days: SearchDays,
    private readonly dayRuns: DayRuns,
    private readonly stats: RaptorStats,
    private readonly work: WorkCounts,
  ) {
    const n = data.stopCount;
    const labels = () => new Int32Array(n).fill(UNREACHED);
    this.bestVeh = labels();
    this.bestWalk = labels();
    this.walkStamp = new Uint8Array(n);
    this.vehStamp = new Uint8Array(n);
    this.walkRun = new Int32Array(n);
    this.vehRun = new Int32Array(n);
    this.reached = new Uint32Array(n);
    this.walked = new Uint32Array(n);
    this.prevList = new Uint32Array(n);
    this.curList = new Uint32Array(n);
    this.vehList = new Uint32Array(n);
    this.mark = new Int32Array(data.routeCount).fill(NOT_MARKED);
    this.markList = new Uint32Array(data.routeCount);
    this.vehicleSec = new Int32Array(n).fill(-1);
    this.stopRoutes = new DayStopRoutes(data, days.slotDay.length);
    this.alightsEverywhere = alightsEverywhere(data);
  }

  /**
   * The search of `q` (a departure search the general one hands over, its service days chosen in
   * `days`): at most `maxVehicles` vehicles (LEAN_MAX_ROUNDS at most), labels below `limit`, `slack`
   * the board slack, `pruned` the connections it walks.
   */
  search(q: RaptorQuery, maxVehicles: number, limit: number, slack: number, pruned: PrunedTransfers): RaptorResult {
    this.reset();
    this.lists = this.stopRoutes.of(this.days);
    this.limit = limit;
    this.slack = slack;
    this.tripAllowed = q.tripAllowed;
    // round 0: the access stops, walked to
    this.round = 0;
    for (let i = 0; i < q.count; i++) this.offerWalked(q.accessStops[i]!, Math.max(0, q.accessSec[i]!) + slack, NO_RUN);
    this.swap();
    const pairs = connectionPairs(pruned, true);
    for (let round = 1; round <= maxVehicles && this.prevCount > 0; round++) {
      this.stats.rounds = this.round = round;
      this.markRoutes();
      this.scanMarked();
      this.prevCount = 0;
      // transfers: none needed after the last round
      if (round < maxVehicles) this.transfer(pruned, pairs);
      this.vehCount = 0;
      this.swap();
    }
    // the loop ends on a round without walked labels, or after the last round, which makes none
    return this.result();
  }

  /** Forget the previous search (only what it touched). */
  private reset(): void {
    // a stop with a vehicle stamp holds a vehicle label, one with a walked stamp a walked label
    for (let j = 0; j < this.reachedCount; j++) {
      const p = this.reached[j]!;
      this.bestVeh[p] = UNREACHED;
      this.vehicleSec[p] = -1;
      this.vehStamp[p] = 0;
    }
    this.reachedCount = 0;
    for (let j = 0; j < this.walkedCount; j++) {
      const p = this.walked[j]!;
      this.bestWalk[p] = UNREACHED;
      this.walkStamp[p] = 0;
    }
    this.walkedCount = 0;
    for (let j = 0; j < this.markCount; j++) this.mark[this.markList[j]!] = NOT_MARKED;
    this.prevCount = this.curCount = this.vehCount = this.markCount = 0;
    this.visits = this.lookUps = this.relaxations = 0;
  }

  /** Mark the routes through the stops walked to in the previous round, each from its first such stop. */
  private markRoutes(): void {
    const { offset: stopRouteOffset, routes: stopRoutes, positions: stopRoutePos } = this.lists!;
    const { mark, markList, prevList } = this;
    let count = this.markCount;
    for (let j = 0; j < this.prevCount; j++) {
      const p = prevList[j]!;
      const end = stopRouteOffset[p + 1]!;
      for (let e = stopRouteOffset[p]!; e < end; e++) {
        const r = stopRoutes[e]!;
        const pos = stopRoutePos[e]!;
        const m = mark[r]!;
        if (m === NOT_MARKED) {
          markList[count++] = r;
          mark[r] = pos;
        } else if (pos < m) mark[r] = pos;
      }
    }
    this.markCount = count;
  }

  /**
   * Scan the marked routes (raptor.ts `scanRoute`, forward), each from its first marked position,
   * once per service day whose runs can matter, and unmark them; a route marked at its last stop
   * only goes nowhere. One function: the per-search arrays stay in registers across the routes.
   */
  private scanMarked(): void {
    const d = this.data;
    const { routeStops, boardAlight, departureSec: dep, arrivalSec: arr, routeDayBits, routeTripCount, routeStopOffset } = d;
    const { zoneSlotStart, slotOffset, slotDay, slotWord, slotBit } = this.days;
    const limit = this.limit;
    const { bestVeh, bestWalk, walkStamp, walkRun, vehStamp, vehRun, vehList, reached, mark, markList, alightsEverywhere: alightsAll, round } = this;
    const { next, last } = this.dayRuns;
    let reachedCount = this.reachedCount;
    let vehCount = this.vehCount;
    for (let j = 0; j < this.markCount; j++) {
      const r = markList[j]!;
      const start = mark[r]!;
      mark[r] = NOT_MARKED;
      const after = routeStopOffset[r + 1]! - routeStopOffset[r]! - 1 - start;
      if (after <= 0) continue;
      this.visits += after + 1;
      this.stats.routesScanned++;
      const stopBase = routeStopOffset[r]!;
      const S = routeStopOffset[r + 1]! - stopBase;
      const rtBase = d.routeTripOffset[r]!;
      const K = d.routeTripOffset[r + 1]! - rtBase;
      const stBase = d.routeStopTimeOffset[r]!;
      const lo = d.routeMinSec[r]!;
      const hi = d.routeMaxSec[r]!;
      const tz = d.routeTimezone[r]!;
      const dayBase = r * d.serviceWords;
      const everywhere = alightsAll[r] === 1;
      const slotEnd = zoneSlotStart[tz + 1]!;
      for (let slot = zoneSlotStart[tz]!; slot < slotEnd; slot++) {
        const off = slotOffset[slot]!;
        if (off + hi < 0 || off + lo >= limit) continue; // the route runs outside the search that day
        if (((routeDayBits[dayBase + slotWord[slot]!]! >>> slotBit[slot]!) & 1) === 0) continue; // or not at all
        const runs = this.dayRuns.of(r, slotDay[slot]!, slotWord[slot]!, slotBit[slot]!, 1, K, rtBase);
        // trips after the last one running that day never count
        const running = K > 0 ? last[runs + K - 1]! + 1 : 0;
        // the day's first trip leaves the first position at or past the limit: so does every later one, there and further on
        if (running === 0 || off + dep[stBase + next[runs]! * S + start]! >= limit) continue;
        const runBase = slot * routeTripCount + rtBase; // run of trip k: runBase + k
        let trip = -1;
        let row = 0; // stBase + trip*S
        for (let i = start; i < S; i++) {
          const p = routeStops[stopBase + i]!;
          if (trip >= 0) {
            const st = row + i;
            if (everywhere || boardAlight[st]! & CAN_ALIGHT) {
              const x = off + arr[st]!;
              if (x >= limit) trip = -1; // runs on past the bound: nothing further on this trip counts
              else if (x < bestVeh[p]!) {
                if (bestVeh[p] === UNREACHED) reached[reachedCount++] = p;
                bestVeh[p] = x;
                if (vehStamp[p] !== round) {
                  vehStamp[p] = round;
                  vehList[vehCount++] = p;
                }
                vehRun[p] = runBase + trip;
              }
            }
          }
          if (walkStamp[p] !== round) continue;
          const w = bestWalk[p]!;
          if (trip >= 0) {
            // only an earlier trip can help, and trips never overtake: nothing to search when the
            // current trip leaves before w, or the one before it does, or the last one before it
            // that runs that day does
            if (w > off + dep[row + i]!) continue;
            if (trip === 0 || off + dep[row + i - S]! < w) continue;
            const before = last[runs + trip - 1]!;
            if (before < 0 || off + dep[stBase + before * S + i]! < w) continue;
          }
          const below = trip >= 0 ? trip : running;
          // aboard nothing yet: no trip when the day's last one has left
          if (trip < 0 && (below === 0 || dep[stBase + (below - 1) * S + i]! < w - off)) continue;
          let k = this.boardable(stBase, rtBase, S, this.firstLeaving(dep, stBase, S, below, i, w - off), below, i, off, runs);
          // the label came off this very run: the next trip (see the header), leaving no earlier
          if (k >= 0 && runBase + k === walkRun[p]) k = this.boardable(stBase, rtBase, S, k + 1, below, i, off, runs);
          if (k >= 0) {
            trip = k;
            row = stBase + k * S;
          }
        }
      }
    }
    this.markCount = 0;
    this.reachedCount = reachedCount;
    this.vehCount = vehCount;
  }

  /** `firstLeaving` (day-runs.ts) forward from the first trip, counted. */
  private firstLeaving(dep: Int32Array, stBase: number, S: number, below: number, i: number, target: number): number {
    this.lookUps++;
    return firstLeaving(dep, 1, stBase, S, i, 0, below, target);
  }

  /**
   * The first trip k in [a, below) of a route that runs that day (from `runs`), may be boarded at
   * position i and is allowed; -1 if none, or if it leaves at or past the limit.
   */
  private boardable(stBase: number, rtBase: number, S: number, a: number, below: number, i: number, off: number, runs: number): number {
    const { departureSec: dep, boardAlight, routeTripTrip } = this.data;
    const lastSec = this.limit - off;
    const next = this.dayRuns.next;
    const allowed = this.tripAllowed;
    for (let k = a < below ? next[runs + a]! : below; k < below; k = k + 1 < below ? next[runs + k + 1]! : below) {
      const st = stBase + k * S + i;
      if (dep[st]! >= lastSec) return -1;
      if (!(boardAlight[st]! & CAN_BOARD)) continue;
      if (allowed !== null && allowed[routeTripTrip[rtBase + k]!] === 0) continue;
      return k;
    }
    return -1;
  }

  /** Walked labels from this round's vehicle labels: stay at the stop or walk a connection. */
  private transfer(pruned: PrunedTransfers, pairs: Int32Array): void {
    const { stopStaySec } = this.data;
    const offset = pruned.outOffset;
    const { bestVeh, vehRun, vehList, bestWalk, limit, slack } = this;
    for (let j = 0; j < this.vehCount; j++) {
      const p = vehList[j]!;
      const x = bestVeh[p]!;
      const run = vehRun[p]!;
      const stay = stopStaySec[p]!;
      if (stay !== NO_STAY) this.offerWalked(p, x + stay + slack, run);
      this.relaxations += offset[p + 1]! - offset[p]!;
      // offerWalked's tests, made here first: most relaxations end on them
      const base = x + slack;
      const room = limit - base;
      const end = 2 * offset[p + 1]!;
      for (let k = 2 * offset[p]!; k < end; k += 2) {
        const q = pairs[k]!;
        const sec = pairs[k + 1]!;
        if (base + sec >= bestWalk[q]! || sec >= room) continue;
        this.offerWalked(q, base + sec, run);
      }
    }
  }

  /** A walked label x (off run `run`) at stop p for the current round: kept when below the best over the rounds. */
  private offerWalked(p: number, x: number, run: number): void {
    if (x >= this.limit || x >= this.bestWalk[p]!) return;
    if (this.bestWalk[p] === UNREACHED) this.walked[this.walkedCount++] = p;
    this.bestWalk[p] = x;
    const stamp = this.round + 1;
    if (this.walkStamp[p] !== stamp) {
      this.walkStamp[p] = stamp;
      this.curList[this.curCount++] = p;
    }
    this.walkRun[p] = run;
  }

  /** The current round's walked labels become the previous round's (which are clear). */
  private swap(): void {
    [this.prevList, this.curList] = [this.curList, this.prevList];
    this.prevCount = this.curCount;
    this.curCount = 0;
  }

  private result(): RaptorResult {
    const { stats, work } = this;
    work.searches++;
    work.rounds += stats.rounds;
    work.routesScanned += stats.routesScanned;
    work.visits += this.visits;
    work.tripSearches += this.lookUps;
    work.relaxations += this.relaxations;
    this.visits = this.lookUps = this.relaxations = 0;
    for (let j = 0; j < this.reachedCount; j++) {
      const p = this.reached[j]!;
      this.vehicleSec[p] = this.bestVeh[p]!;
    }
    stats.reachedStops = this.reachedCount;
    return { vehicleSec: this.vehicleSec, reached: this.reached, reachedCount: this.reachedCount };
  }
}

/** Per route, 1 when every trip lets riders off at each of its positions past the first. */
function alightsEverywhere(d: RaptorData): Uint8Array {
  const { routeStopOffset, routeTripOffset, routeStopTimeOffset, boardAlight } = d;
  const out = new Uint8Array(d.routeCount);
  for (let r = 0; r < d.routeCount; r++) {
    const S = routeStopOffset[r + 1]! - routeStopOffset[r]!;
    const K = routeTripOffset[r + 1]! - routeTripOffset[r]!;
    const base = routeStopTimeOffset[r]!;
    let all = 1;
    for (let k = 0; k < K && all === 1; k++) {
      for (let i = 1; i < S; i++) {
        if ((boardAlight[base + k * S + i]! & CAN_ALIGHT) === 0) {
          all = 0;
          break;
        }
      }
    }
    out[r] = all;
  }
  return out;
}
