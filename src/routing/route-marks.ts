/**
 * The routes a RAPTOR round scans (raptor.ts, step 1 of a round): the routes through the stops
 * whose walked label improved, each from the first such stop along it, listed for a cheap reset;
 * and, for an overlay's routes, per (route, service day) the trips running that day, found once per
 * search (the timetable's routes keep theirs across searches: day-runs.ts).
 */
import type { RouteTable } from './raptor-data.js';

/** `routeMark` of a route not marked in the current round. */
export const NOT_MARKED = -1;

/**
 * The routes of one table marked in the current round, each with the first (virtual) position to
 * scan from, and per (route, slot) the running trips cached for the search (`slotCapacity` 0: none kept).
 */
export class RouteMarks {
  readonly mark: Int32Array;
  readonly list: Uint32Array;
  count = 0;
  /** per (route, slot): 1 + the last virtual trip running that day, valid when its stamp is this search's */
  readonly runningEnd: Int32Array;
  readonly runningStamp: Uint32Array;

  constructor(
    readonly capacity: number,
    slotCapacity: number,
  ) {
    this.mark = new Int32Array(capacity).fill(NOT_MARKED);
    this.list = new Uint32Array(capacity);
    this.runningEnd = new Int32Array(capacity * slotCapacity);
    this.runningStamp = new Uint32Array(capacity * slotCapacity);
  }

  /** Mark the routes of `d` through stop p, from p's (virtual) position on. */
  markAt(d: RouteTable, p: number, fwd: boolean): void {
    const { stopRouteOffset, stopRoutes, stopRoutePos, routeStopOffset } = d;
    for (let e = stopRouteOffset[p]!; e < stopRouteOffset[p + 1]!; e++) {
      const r = stopRoutes[e]!;
      const pos = fwd ? stopRoutePos[e]! : routeStopOffset[r + 1]! - routeStopOffset[r]! - 1 - stopRoutePos[e]!;
      this.markRoute(r, pos);
    }
  }

  /** Mark route r from (virtual) position `pos` on, or from its earlier mark. */
  markRoute(r: number, pos: number): void {
    const m = this.mark[r]!;
    if (m === NOT_MARKED) {
      this.list[this.count++] = r;
      this.mark[r] = pos;
    } else if (pos < m) this.mark[r] = pos;
  }

  clear(): void {
    for (let j = 0; j < this.count; j++) this.mark[this.list[j]!] = NOT_MARKED;
    this.count = 0;
  }
}
