/**
 * A departure window's first round, minute by minute (raptor.ts): the access is the same at every
 * minute, only earlier by a step, so a route through an access stop offers something new at a
 * minute only where one of its trips leaves that stop after the rider can be there at that minute
 * and before the rider could be there at the minute after (searched just before it). At any other
 * minute the trips it catches are the later minute's, whose stops downstream are bounded already in
 * that round (range-bounds.ts), and its scan would offer nothing.
 *
 * Made once per window, at its first minute searched (which marks every route through the access
 * stops): per earlier minute, the (route, position) pairs where such a trip leaves, any trip of the
 * route counting (running that day or not, boardable or not: the route scan decides).
 */

export class FirstRoundMarks {
  /** the window (`RangeBounds.window`) the lists are of, and its first minute searched: minutes below it have one */
  window = -1;
  firstMinute = 0;
  /** minute m's pairs: routes/positions[offset[m] .. offset[m+1]) */
  offset = new Int32Array(0);
  routes = new Uint32Array(1024);
  positions = new Uint32Array(1024);
  // the pairs as they come, before they are sorted by minute
  private minuteOf = new Int32Array(1024);
  private routeOf = new Uint32Array(1024);
  private positionOf = new Uint32Array(1024);
  private count = 0;

  /** Start the lists of `window`, whose first minute searched is `firstMinute`. */
  start(window: number, firstMinute: number): void {
    this.window = window;
    this.firstMinute = firstMinute;
    this.count = 0;
  }

  /** A trip of route r leaves its (virtual) position `pos` new at minute m (m < firstMinute). */
  add(m: number, r: number, pos: number): void {
    if (this.count === this.minuteOf.length) this.grow();
    this.minuteOf[this.count] = m;
    this.routeOf[this.count] = r;
    this.positionOf[this.count++] = pos;
  }

  /** Sort the pairs by minute (a counting sort). */
  finish(): void {
    const minutes = this.firstMinute;
    if (this.offset.length < minutes + 1) this.offset = new Int32Array(minutes + 1);
    if (this.routes.length < this.count) {
      this.routes = new Uint32Array(this.minuteOf.length);
      this.positions = new Uint32Array(this.minuteOf.length);
    }
    const offset = this.offset;
    offset.fill(0, 0, minutes + 1);
    for (let j = 0; j < this.count; j++) offset[this.minuteOf[j]! + 1]!++;
    for (let m = 0; m < minutes; m++) offset[m + 1]! += offset[m]!;
    const next = offset.slice(0, minutes);
    for (let j = 0; j < this.count; j++) {
      const at = next[this.minuteOf[j]!]!++;
      this.routes[at] = this.routeOf[j]!;
      this.positions[at] = this.positionOf[j]!;
    }
  }

  private grow(): void {
    const n = this.minuteOf.length * 2;
    const minuteOf = new Int32Array(n);
    minuteOf.set(this.minuteOf);
    this.minuteOf = minuteOf;
    const routeOf = new Uint32Array(n);
    routeOf.set(this.routeOf);
    this.routeOf = routeOf;
    const positionOf = new Uint32Array(n);
    positionOf.set(this.positionOf);
    this.positionOf = positionOf;
  }

  bytes(): number {
    return this.offset.byteLength + 2 * this.routes.byteLength + 3 * this.minuteOf.byteLength;
  }
}
