/**
 * The street oracle (issue 25): the earliest arrival at given points when leaving a centre at a
 * given time, on foot and by public transport, where every walk follows pgRouting's streets
 * (test/helpers/pgrouting-walk-network.ts) and the timetable is the raw feeds'
 * (interpolated-connections.ts). No code of src/: its only imports from there are constants, by
 * street-check-settings.ts.
 *
 * The rules it follows (issue 25's), with RULES's values:
 *
 *   - A walk between two points: the first one's off-street offset, pgRouting's distance between
 *     their positions on their nearest edges, the second one's offset; at the city's walking speed.
 *     A point farther than RULES.linkRadiusM from every street (the centre, a stop, a cell's centre)
 *     is not linked: no walk starts or ends there.
 *   - Access: from the centre to every stop within RULES.accessMaxSec of walking; a centre that is
 *     a stop (the API's `from=<stop_id>`) is at that stop at t0.
 *   - Board slack: a rider is at the stop RULES.boardSlackSec before the vehicle departs, at the
 *     first boarding and at every change (changing at the same stop too: arrival + slack ≤
 *     departure). Staying aboard needs nothing.
 *   - Transfers: after alighting, one walk of at most RULES.transferMaxM (offsets included) to
 *     another stop; never a walk after a walk.
 *   - The scan: a connection scan (earliest arrival) over the connections departing within
 *     [t0, t0 + horizon], as many vehicles as it likes. Two labels per stop: when a rider can be
 *     there (to board) and when a vehicle brings one there (to walk on from).
 *   - Among journeys arriving at the same time at a point, the one with fewer vehicles (RAPTOR's
 *     rule, round by round), then the one walking least: labels are kept per stop and per number of
 *     vehicles behind them (up to MAX_RIDES), so that a later label with fewer vehicles survives an
 *     earlier one with more; a run already boarded is boarded again at a later stop where a rider
 *     with fewer vehicles behind them, or as many having walked less, can be. The parts of the
 *     journeys (`legs`) follow from that choice; their arrival does not.
 *   - A point's value: the best of the direct walk from the centre and, over the stops a vehicle
 *     reaches, that arrival plus the walk to the point; minus t0, truncated to whole seconds like
 *     the API's values; null beyond the horizon. The points' rule (R5's, by default): the direct
 *     walk at most RULES.accessMaxSec, the walk from the stop at most RULES.egressMaxSec; a heat
 *     map's cells (`cells`) walk both up to the horizon.
 */
import type { LinkedPoint, LonLat, PgRoutingWalkNetwork } from '../helpers/pgrouting-walk-network.js';
import { ALIGHT, BOARD, FeedConnections } from './interpolated-connections.js';
import { gtfsDay, localTime } from './raw-gtfs.js';
import { RULES, type City } from './street-check-settings.js';

export interface OracleAnswer {
  /** per point, seconds after t0 (null: not within the horizon) */
  values: (number | null)[];
  /** per point, its off-street offset in metres */
  offsetsM: number[];
  /** stops reached on foot from the centre, and by a vehicle */
  stopsWalkedTo: number;
  stopsRidden: number;
  /** per point, the journey of its value in parts (null where `values` is) */
  legs: (OracleLegs | null)[];
}

/**
 * A journey in parts, seconds (not rounded): the walk to the first stop (or the whole walk), the
 * time in vehicles, the walks between stops, the walk from the last stop, and what is left of the
 * travel time, waiting; the vehicles boarded.
 */
export interface OracleLegs {
  access: number;
  wait: number;
  ride: number;
  transfer: number;
  egress: number;
  rides: number;
}

/** Whether arriving at `t` with `rides` vehicles beats arriving at `bestT` with `bestRides`: earlier, or as early with fewer vehicles. */
const better = (t: number, rides: number, bestT: number, bestRides: number) => t < bestT || (t === bestT && rides < bestRides);

/** The seconds label `a` of `parts` walked: to the first stop and between stops. */
const walkedSec = (parts: LabelParts, a: number) => parts.access[a]! + parts.transfer[a]!;

/** Labels per stop for journeys of up to this many vehicles: more than any journey the checks compare rides (ours: max_nb_transfers + 1). */
const MAX_RIDES = 12;

/** The parts of a label: access, ride and transfer seconds, rides (a journey up to a stop). */
class LabelParts {
  readonly access: Float64Array;
  readonly ride: Float64Array;
  readonly transfer: Float64Array;
  readonly rides: Int32Array;
  constructor(n: number) {
    this.access = new Float64Array(n);
    this.ride = new Float64Array(n);
    this.transfer = new Float64Array(n);
    this.rides = new Int32Array(n);
  }
  /** label `to` is label `from` of `source`, plus `rideSec` in a vehicle (one more ride when given) and `walkSec` between stops */
  copy(to: number, source: LabelParts, from: number, rideSec = 0, walkSec = 0, boarded = 0): void {
    this.access[to] = source.access[from]!;
    this.ride[to] = source.ride[from]! + rideSec;
    this.transfer[to] = source.transfer[from]! + walkSec;
    this.rides[to] = source.rides[from]! + boarded;
  }
}

export interface OracleOptions {
  /** epoch seconds (the city's datetime by default) */
  t0?: number;
  /** an index of `timetable.stops`: the centre is that stop */
  atStop?: number;
  /** the points are a heat map's cells: their walks, from the centre and from the last stop, up to the horizon */
  cells?: boolean;
}

/** Epoch seconds of a naive `YYYYMMDDThhmmss` in a time zone. */
export function instantOf(datetime: string, timeZone: string): number {
  const m = /^(\d{8})T(\d\d)(\d\d)(\d\d)$/.exec(datetime);
  if (!m) throw new Error(`not a YYYYMMDDThhmmss datetime: ${datetime}`);
  return localTime(timeZone, gtfsDay(m[1]!), Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]));
}

/** Whether a point is linked to the streets: within RULES.linkRadiusM of its nearest edge. */
export function isLinked(p: LinkedPoint): boolean {
  return p.offsetM <= RULES.linkRadiusM;
}

export class StreetTransitOracle {
  private constructor(
    readonly city: City,
    readonly network: PgRoutingWalkNetwork,
    readonly timetable: FeedConnections,
    private readonly stops: LinkedPoint[],
    /** transfer walks from stop s: transferTo / transferM at transferFrom[s] … transferFrom[s + 1] − 1 */
    private readonly transferFrom: Int32Array,
    private readonly transferTo: Int32Array,
    private readonly transferM: Float64Array,
  ) {}

  static async open(city: City, network: PgRoutingWalkNetwork): Promise<StreetTransitOracle> {
    const timetable = await FeedConnections.load(city.gtfs);
    const stops = await network.link(timetable.stops);
    const walks = (await network.walksWithin(stops, stops, RULES.transferMaxM)).filter((w) => w.source !== w.target && isLinked(stops[w.source]!) && isLinked(stops[w.target]!));
    walks.sort((a, b) => a.source - b.source || a.target - b.target);
    const from = new Int32Array(stops.length + 1);
    for (const w of walks) from[w.source + 1]!++;
    for (let s = 0; s < stops.length; s++) from[s + 1]! += from[s]!;
    return new StreetTransitOracle(city, network, timetable, stops, from, Int32Array.from(walks, (w) => w.target), Float64Array.from(walks, (w) => w.metres));
  }

  get transferCount(): number {
    return this.transferTo.length;
  }

  /** The index of the first feed's stop `stopId`, or −1. */
  stopIndex(stopId: string): number {
    return this.timetable.stops.findIndex((s) => s.id === `0/${stopId}`);
  }

  /** The values of `points` leaving `centre` up to `horizonSec` (see OracleOptions). */
  async values(centre: LonLat, points: LonLat[], horizonSec: number, options: OracleOptions = {}): Promise<OracleAnswer> {
    const t0 = options.t0 ?? instantOf(this.city.datetime, this.timetable.timezone);
    const atStop = options.atStop ?? -1;
    const speed = this.city.walkingSpeed;
    const [origin, ...cells] = await this.network.link([centre, ...points]);
    const n = this.stops.length;
    // labels per stop and per number of vehicles behind them (layer 0: the walk from the centre), so
    // that a journey with fewer vehicles is kept beside an earlier one with more: index layer × n + stop
    const L = MAX_RIDES + 1;
    const stopAt = new Float64Array(L * n).fill(Infinity);
    const vehicleAt = new Float64Array(L * n).fill(Infinity);
    // the journeys behind the labels, in parts: at the stops (to board), off a vehicle, aboard a run (from its boarding)
    const stopParts = new LabelParts(L * n);
    const vehicleParts = new LabelParts(L * n);
    // walks between linked points only
    const walks = async (from: LinkedPoint[], to: LinkedPoint[], maxM: number) =>
      (await this.network.walksWithin(from, to, maxM)).filter((w) => isLinked(from[w.source]!) && isLinked(to[w.target]!));
    const access = await walks([origin!], this.stops, RULES.accessMaxSec * speed);
    for (const w of access) {
      if (t0 + w.metres / speed >= stopAt[w.target]!) continue;
      stopAt[w.target] = t0 + w.metres / speed;
      stopParts.access[w.target] = w.metres / speed;
    }
    if (atStop >= 0) {
      stopAt[atStop] = t0;
      stopParts.access[atStop] = 0;
    }

    const c = this.timetable.departingWithin(t0, t0 + horizonSec);
    // per run: the layer of the label it was boarded from (-1: not boarded), that label's parts, the departure
    const runLayer = new Int32Array(c.runCount).fill(-1);
    const runParts = new LabelParts(c.runCount);
    const runDeparture = new Float64Array(c.runCount);
    for (let k = 0; k < c.dep.length; k++) {
      const run = c.run[k]!;
      const from = c.from[k]!;
      if (c.flags[k]! & BOARD) {
        // the fewest vehicles a rider here in time has behind them
        let layer = 0;
        while (layer < MAX_RIDES && stopAt[layer * n + from]! + RULES.boardSlackSec > c.dep[k]!) layer++;
        const at = layer * n + from;
        const board = layer < MAX_RIDES && (runLayer[run]! < 0 || layer < runLayer[run]! || (layer === runLayer[run]! && walkedSec(stopParts, at) < walkedSec(runParts, run)));
        if (board) {
          runLayer[run] = layer;
          runParts.copy(run, stopParts, at);
          runDeparture[run] = c.dep[k]!;
        }
      }
      if (runLayer[run]! < 0 || !(c.flags[k]! & ALIGHT)) continue;
      const layer = runLayer[run]! + 1;
      const to = layer * n + c.to[k]!;
      const arr = c.arr[k]!;
      if (arr >= vehicleAt[to]!) continue;
      vehicleAt[to] = arr;
      vehicleParts.copy(to, runParts, run, arr - runDeparture[run]!, 0, 1);
      if (arr < stopAt[to]!) {
        stopAt[to] = arr;
        stopParts.copy(to, vehicleParts, to);
      }
      for (let f = this.transferFrom[c.to[k]!]!; f < this.transferFrom[c.to[k]! + 1]!; f++) {
        const walkSec = this.transferM[f]! / speed;
        const t = arr + walkSec;
        const next = layer * n + this.transferTo[f]!;
        if (t >= stopAt[next]!) continue;
        stopAt[next] = t;
        stopParts.copy(next, vehicleParts, to, 0, walkSec);
      }
    }

    const best = new Float64Array(cells.length).fill(Infinity);
    // per point, the label (layer × n + stop) of its best journey's last vehicle (-1: the direct walk) and the walk from it
    const lastLabel = new Int32Array(cells.length).fill(-1);
    const lastWalk = new Float64Array(cells.length);
    const directMaxSec = options.cells ? horizonSec : Math.min(horizonSec, RULES.accessMaxSec);
    for (const w of await walks([origin!], cells, directMaxSec * speed)) best[w.target] = Math.min(best[w.target]!, t0 + w.metres / speed);
    const ridden = [...Array(n).keys()].filter((s) => Array.from({ length: L }, (_, layer) => vehicleAt[layer * n + s]!).some((t) => t < Infinity));
    const egress = await walks(cells, ridden.map((s) => this.stops[s]!), (options.cells ? horizonSec : RULES.egressMaxSec) * speed);
    for (const w of egress) {
      for (let layer = 1; layer < L; layer++) {
        const label = layer * n + ridden[w.target]!;
        const t = vehicleAt[label]! + w.metres / speed;
        const bestRides = lastLabel[w.source]! < 0 ? 0 : vehicleParts.rides[lastLabel[w.source]!]!;
        if (!better(t, layer, best[w.source]!, bestRides)) continue;
        best[w.source] = t;
        lastLabel[w.source] = label;
        lastWalk[w.source] = w.metres / speed;
      }
    }
    const legsOf = (p: number): OracleLegs | null => {
      const total = best[p]! - t0;
      if (!(total <= horizonSec)) return null;
      const s = lastLabel[p]!;
      if (s < 0) return { access: total, wait: 0, ride: 0, transfer: 0, egress: 0, rides: 0 };
      const moving = vehicleParts.access[s]! + vehicleParts.ride[s]! + vehicleParts.transfer[s]! + lastWalk[p]!;
      return { access: vehicleParts.access[s]!, wait: total - moving, ride: vehicleParts.ride[s]!, transfer: vehicleParts.transfer[s]!, egress: lastWalk[p]!, rides: vehicleParts.rides[s]! };
    };
    return {
      legs: cells.map((_, p) => legsOf(p)),
      values: [...best].map((t) => (t - t0 <= horizonSec ? Math.floor(t - t0) : null)),
      offsetsM: cells.map((c) => c.offsetM),
      stopsWalkedTo: new Set(access.map((w) => w.target)).size,
      stopsRidden: ridden.length,
    };
  }
}
