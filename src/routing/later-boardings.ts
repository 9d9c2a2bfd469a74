/**
 * A departure window's boardings at its later minutes (range RAPTOR, range-bounds.ts): per round and
 * timetable route, the last boarding of the last minute that scanned it there, a trip of a service
 * day at a (virtual) position. From that position to the route's end, that minute rode that trip,
 * or had dropped it past its limit, which an earlier minute's is before. Trips never overtake, so at
 * an earlier minute, in the same round, a trip of that day no earlier, from a position no earlier,
 * arrives nowhere before the later minute's labels there, which the bounds hold already (in that
 * round, or folded from an earlier one): its arrivals need not be read (raptor.ts, `scanRoute`).
 */
export class LaterBoardings {
  private windowOf = new Int32Array(0);
  private dayOf = new Int32Array(0);
  private tripOf = new Int32Array(0);
  private positionOf = new Int32Array(0);
  private routes = 0;

  /** Room for `rounds` rounds of `routes` routes (what was noted is forgotten when it grows). */
  size(rounds: number, routes: number): void {
    if (this.routes === routes && this.windowOf.length >= rounds * routes) return;
    const n = rounds * routes;
    this.windowOf = new Int32Array(n).fill(-1);
    this.dayOf = new Int32Array(n);
    this.tripOf = new Int32Array(n);
    this.positionOf = new Int32Array(n);
    this.routes = routes;
  }

  /** The trip noted for route r in `round` of `window` on `day`, -1 when none (`position` gives where). */
  trip(window: number, round: number, r: number, day: number): number {
    const key = round * this.routes + r;
    return this.windowOf[key] === window && this.dayOf[key] === day ? this.tripOf[key]! : -1;
  }

  /** The position of the trip `trip` gave. */
  position(round: number, r: number): number {
    return this.positionOf[round * this.routes + r]!;
  }

  /** Route r was last boarded, in `round` of `window`, at `position` on trip `trip` of `day`. */
  note(window: number, round: number, r: number, day: number, trip: number, position: number): void {
    const key = round * this.routes + r;
    this.windowOf[key] = window;
    this.dayOf[key] = day;
    this.tripOf[key] = trip;
    this.positionOf[key] = position;
  }

  bytes(): number {
    return this.windowOf.byteLength * 4;
  }
}
