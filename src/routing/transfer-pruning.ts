/**
 * The connections a RAPTOR search needs, at one walking speed: the others are dominated and left
 * out, with the same answers (R5 and OpenTripPlanner keep only the closest stop of each pattern,
 * which loses journeys; this rule loses none).
 *
 * A connection p → q serves only to board a route at q (a search's answer is its vehicle labels,
 * and a walked label leads nowhere but into a vehicle). On route r, q at position j is dominated by
 * a stop u at an earlier position i, reached from p by a connection too, when every trip of r that
 * can be boarded at q can be boarded at u:
 *
 *   walk(p → u) + the most any trip of r takes from leaving u to leaving q  ≤  walk(p → q)
 *
 * and every trip of r may be boarded at u. Riding from u then reaches every stop after q no later.
 * The stop p itself dominates the same way when r passes it before q, staying there in place of the
 * walk (the stay's time, at a stop where changing is allowed).
 * The longest leave-to-leave time is bounded by the sum of each segment's longest (`RouteGaps`); the
 * bound adds up along a route, so domination is transitive and the undominated connection that
 * dominates the others is always kept. A connection is needed when q is undominated on one of its
 * routes; one to a stop no route serves is never needed.
 *
 * Arrival searches walk the connections backwards to a stop where the rider left a vehicle: the
 * mirror rule, on the incoming connections of each stop, with a later stop of the route that every
 * trip lets the rider leave, and the longest arrive-to-arrive time.
 *
 * The bounds hold for the timetable's trips and for any subset of them: a search over an overlay
 * (realtime runs, a scenario), which masks some trips and adds routes of its own, keeps the pruned
 * connections and adds every connection that reaches a stop an overlay route serves
 * (`overlayNeeds`: into it for departure searches, out of it for arrival searches). One that
 * excludes stops (forbidden ones, or inaccessible ones for wheelchairs) uses every connection.
 */
import { sharedArray } from '../model/shared-arrays.js';
import { inOnePiece } from '../util/stepwise.js';
import { CAN_ALIGHT, CAN_BOARD, transferSec, type RaptorData, type RouteTable } from './raptor-data.js';

/**
 * The API's default walking speed (m/s). The connections it needs are pruned once, with the
 * coverage's search data (HeatMapData.prunedTransfers, kept in its snapshot), not by each thread's
 * first search: on a country's 153,000 stop points pruning takes seconds, more than a map's budget.
 */
export const DEFAULT_WALKING_SPEED = 1.12;

/** Stops whose connections are pruned between two yields of `pruneTransfersSteps`. */
const STOPS_PER_STEP = 2048;

/** Per position of every route (indexed like `routeStops`): the longest times from its first stop, and whether every trip boards / alights there. */
export interface RouteGaps {
  /** sum over the route's segments before the position of the longest leave-to-leave time, seconds */
  leaveFromStart: Float64Array;
  /** the same with arrive-to-arrive times */
  arriveFromStart: Float64Array;
  /** 1 when every trip of the route may be boarded there */
  alwaysBoard: Uint8Array;
  /** 1 when every trip of the route may be left there */
  alwaysAlight: Uint8Array;
  /** the route of the position */
  routeOf: Uint32Array;
}

/** The connections kept at one walking speed, out of each stop (departure searches) and into it (arrival searches), with their seconds. */
export interface PrunedTransfers {
  speed: number;
  outOffset: Uint32Array;
  outTo: Uint32Array;
  outSec: Int32Array;
  inOffset: Uint32Array;
  inFrom: Uint32Array;
  inSec: Int32Array;
}

const PAIRS = new WeakMap<PrunedTransfers, [Int32Array, Int32Array]>();
/** The pruned connections as (other stop, seconds) pairs in one array: one cache line read for both. */
export function connectionPairs(t: PrunedTransfers, fwd: boolean): Int32Array {
  let pairs = PAIRS.get(t);
  if (!pairs) {
    const interleave = (other: Uint32Array, seconds: Int32Array) => {
      const out = new Int32Array(2 * other.length);
      for (let k = 0; k < other.length; k++) {
        out[2 * k] = other[k]!;
        out[2 * k + 1] = seconds[k]!;
      }
      return out;
    };
    pairs = [interleave(t.outTo, t.outSec), interleave(t.inFrom, t.inSec)];
    PAIRS.set(t, pairs);
  }
  return fwd ? pairs[0] : pairs[1];
}

export function routeGaps(d: RaptorData): RouteGaps {
  const positions = d.routeStops.length;
  const leaveFromStart = new Float64Array(positions);
  const arriveFromStart = new Float64Array(positions);
  const alwaysBoard = new Uint8Array(positions).fill(1);
  const alwaysAlight = new Uint8Array(positions).fill(1);
  const leaveGap = new Float64Array(positions);
  const arriveGap = new Float64Array(positions);
  const routeOf = new Uint32Array(positions);
  for (let r = 0; r < d.routeCount; r++) {
    const base = d.routeStopOffset[r]!;
    const S = d.routeStopOffset[r + 1]! - base;
    routeOf.fill(r, base, base + S);
    const K = d.routeTripOffset[r + 1]! - d.routeTripOffset[r]!;
    if (K === 0) continue;
    leaveGap.fill(-Infinity, base, base + S);
    arriveGap.fill(-Infinity, base, base + S);
    for (let k = 0; k < K; k++) {
      const row = d.routeStopTimeOffset[r]! + k * S;
      for (let i = 0; i < S; i++) {
        const flags = d.boardAlight[row + i]!;
        if (!(flags & CAN_BOARD)) alwaysBoard[base + i] = 0;
        if (!(flags & CAN_ALIGHT)) alwaysAlight[base + i] = 0;
        if (i === 0) continue;
        leaveGap[base + i] = Math.max(leaveGap[base + i]!, d.departureSec[row + i]! - d.departureSec[row + i - 1]!);
        arriveGap[base + i] = Math.max(arriveGap[base + i]!, d.arrivalSec[row + i]! - d.arrivalSec[row + i - 1]!);
      }
    }
    for (let i = 1; i < S; i++) {
      leaveFromStart[base + i] = leaveFromStart[base + i - 1]! + leaveGap[base + i]!;
      arriveFromStart[base + i] = arriveFromStart[base + i - 1]! + arriveGap[base + i]!;
    }
  }
  return { leaveFromStart, arriveFromStart, alwaysBoard, alwaysAlight, routeOf };
}

/** Scratch for one stop's candidates: (route position, connection) pairs as sortable numbers. */
class Candidates {
  keys = new Float64Array(1024);
  count = 0;

  add(key: number): void {
    if (this.count === this.keys.length) {
      const keys = new Float64Array(this.count * 2);
      keys.set(this.keys);
      this.keys = keys;
    }
    this.keys[this.count++] = key;
  }
}

/**
 * Which of stop `own`'s `count` connections are needed (`needed[first + c]` set to 1), from the stop
 * at their other end (`other[first + c]`) and their seconds (`seconds[first + c]`): departure
 * (`board`) keeps the undominated boardings, arrival the undominated alightings. The stop itself
 * dominates too, at the time of staying there (`ownSec`; negative: no change of vehicle there).
 */
function markNeeded(d: RaptorData, gaps: RouteGaps, own: number, ownSec: number, first: number, count: number, other: Uint32Array, seconds: Int32Array, board: boolean, scratch: Candidates, needed: Uint8Array): void {
  // each candidate as position × slots + connection (the stop itself: connection `count`): sorting
  // the numbers sorts by position, and positions are global (routeStops indexes), so the candidates
  // of a route come together, in its order
  const slots = count + 1;
  scratch.count = 0;
  const addStop = (q: number, c: number) => {
    for (let k = d.stopRouteOffset[q]!; k < d.stopRouteOffset[q + 1]!; k++) {
      scratch.add((d.routeStopOffset[d.stopRoutes[k]!]! + d.stopRoutePos[k]!) * slots + c);
    }
  };
  for (let c = 0; c < count; c++) addStop(other[first + c]!, c);
  if (count > 0 && ownSec >= 0) addStop(own, count);
  const keys = scratch.keys.subarray(0, scratch.count).sort();
  const fromStart = board ? gaps.leaveFromStart : gaps.arriveFromStart;
  const always = board ? gaps.alwaysBoard : gaps.alwaysAlight;
  const { routeOf } = gaps;
  let x = 0;
  while (x < keys.length) {
    const route = routeOf[Math.floor(keys[x]! / slots)]!;
    let y = x + 1;
    while (y < keys.length && routeOf[Math.floor(keys[y]! / slots)] === route) y++;
    // boarding: sweep the route forwards, the best (walk − time from the start) of the stops before;
    // alighting: backwards, the best (walk + time from the start) of the stops after
    let best = Infinity;
    const step = board ? 1 : -1;
    for (let z = board ? x : y - 1; z >= x && z < y; z += step) {
      const position = Math.floor(keys[z]! / slots);
      const c = keys[z]! - position * slots;
      const walk = c === count ? ownSec : seconds[first + c]!;
      const key = board ? walk - fromStart[position]! : walk + fromStart[position]!;
      if (c < count && best > key) needed[first + c] = 1;
      if (always[position] && key < best) best = key;
    }
    x = y;
  }
}

/** The connections a search at walking speed `speed` needs, both ways. */
export function pruneTransfers(d: RaptorData, gaps: RouteGaps, speed: number): PrunedTransfers {
  return inOnePiece(pruneTransfersSteps(d, gaps, speed));
}

/** `pruneTransfers` a few thousand stops at a time (`inSlices` serves the event loop between them); its arrays on shared memory. */
export function* pruneTransfersSteps(d: RaptorData, gaps: RouteGaps, speed: number): Generator<void, PrunedTransfers> {
  const n = d.transferTo.length;
  const scratch = new Candidates();
  const outNeeded = new Uint8Array(n);
  const inNeeded = new Uint8Array(n);
  const outSeconds = new Int32Array(n);
  const inSeconds = new Int32Array(n);
  for (let e = 0; e < n; e++) outSeconds[e] = transferSec(d, e, speed);
  for (let k = 0; k < n; k++) inSeconds[k] = outSeconds[d.transferInEdge[k]!]!;
  for (let p = 0; p < d.stopCount; p++) {
    const out = d.transferOffset[p]!;
    markNeeded(d, gaps, p, d.stopStaySec[p]!, out, d.transferOffset[p + 1]! - out, d.transferTo, outSeconds, true, scratch, outNeeded);
    const into = d.transferInOffset[p]!;
    markNeeded(d, gaps, p, d.stopStaySec[p]!, into, d.transferInOffset[p + 1]! - into, d.transferInFrom, inSeconds, false, scratch, inNeeded);
    if (p % STOPS_PER_STEP === STOPS_PER_STEP - 1) yield;
  }
  const out = keptOnly(d.stopCount, outNeeded, d.transferOffset, d.transferTo, outSeconds);
  const into = keptOnly(d.stopCount, inNeeded, d.transferInOffset, d.transferInFrom, inSeconds);
  return { speed, outOffset: out.offset, outTo: out.other, outSec: out.seconds, inOffset: into.offset, inFrom: into.other, inSec: into.seconds };
}

/** The needed connections of a table grouped by stop (`offset`), with their other end and seconds. */
function keptOnly(stopCount: number, needed: Uint8Array, offset: Uint32Array, other: Uint32Array, seconds: Int32Array) {
  let count = 0;
  for (let k = 0; k < needed.length; k++) count += needed[k]!;
  const keptOffset = sharedArray(Uint32Array, stopCount + 1);
  const keptOther = sharedArray(Uint32Array, count);
  const keptSeconds = sharedArray(Int32Array, count);
  let m = 0;
  for (let p = 0; p < stopCount; p++) {
    for (let k = offset[p]!; k < offset[p + 1]!; k++) {
      if (!needed[k]) continue;
      keptOther[m] = other[k]!;
      keptSeconds[m++] = seconds[k]!;
    }
    keptOffset[p + 1] = m;
  }
  return { offset: keptOffset, other: keptOther, seconds: keptSeconds };
}

/** Bytes of a pruned table. */
export function prunedTransfersBytes(t: PrunedTransfers): number {
  return t.outOffset.byteLength + t.outTo.byteLength + t.outSec.byteLength + t.inOffset.byteLength + t.inFrom.byteLength + t.inSec.byteLength;
}

/**
 * The timetable's connections a search over an overlay needs beside the pruned ones: per stop p,
 * those from p into a stop an overlay route serves (departure searches board there), and those into
 * p from such a stop (arrival searches walk them backwards), each with its connection index (its
 * seconds depend on the walking speed).
 */
export interface OverlayNeeds {
  outOffset: Uint32Array;
  outTo: Uint32Array;
  outEdge: Uint32Array;
  inOffset: Uint32Array;
  inFrom: Uint32Array;
  inEdge: Uint32Array;
}

export function overlayNeeds(d: RaptorData, routes: RouteTable): OverlayNeeds {
  const n = d.stopCount;
  const served = new Uint8Array(n);
  for (let i = 0; i < routes.routeStops.length; i++) {
    const s = routes.routeStops[i]!;
    if (s < n) served[s] = 1;
  }
  // departure searches: every connection p → q with q served, listed by p
  // on shared memory: made once with the overlay, they travel with it to the worker threads
  const outCount = sharedArray(Uint32Array, n + 1);
  const inCount = sharedArray(Uint32Array, n + 1);
  for (let q = 0; q < n; q++) {
    if (!served[q]) continue;
    for (let k = d.transferInOffset[q]!; k < d.transferInOffset[q + 1]!; k++) outCount[d.transferInFrom[k]! + 1]!++;
    for (let e = d.transferOffset[q]!; e < d.transferOffset[q + 1]!; e++) inCount[d.transferTo[e]! + 1]!++;
  }
  for (let p = 0; p < n; p++) {
    outCount[p + 1]! += outCount[p]!;
    inCount[p + 1]! += inCount[p]!;
  }
  const outTo = sharedArray(Uint32Array, outCount[n]!);
  const outEdge = sharedArray(Uint32Array, outCount[n]!);
  const inFrom = sharedArray(Uint32Array, inCount[n]!);
  const inEdge = sharedArray(Uint32Array, inCount[n]!);
  const outFill = outCount.slice(0, n);
  const inFill = inCount.slice(0, n);
  for (let q = 0; q < n; q++) {
    if (!served[q]) continue;
    for (let k = d.transferInOffset[q]!; k < d.transferInOffset[q + 1]!; k++) {
      const at = outFill[d.transferInFrom[k]!]!++;
      outTo[at] = q;
      outEdge[at] = d.transferInEdge[k]!;
    }
    // arrival searches: every connection u → p with u served, listed by p
    for (let e = d.transferOffset[q]!; e < d.transferOffset[q + 1]!; e++) {
      const at = inFill[d.transferTo[e]!]!++;
      inFrom[at] = q;
      inEdge[at] = e;
    }
  }
  return { outOffset: outCount, outTo, outEdge, inOffset: inCount, inFrom, inEdge };
}
