/**
 * The work a thread's searches did, counted since its engine was made: what the floor bench
 * (bench/floor.ts) prints beside the CPU time, so that a change is judged on the work it saves as
 * well as on a noisy clock. Each counter is a sum over searches; nothing here is read by a search.
 */
export class WorkCounts {
  /** RAPTOR searches (a window's: one per minute) and their rounds */
  searches = 0;
  rounds = 0;
  /** routes scanned (a route once per round it is marked in), and their stops from the first marked one (once, whatever the service days scanned) */
  routesScanned = 0;
  visits = 0;
  /** look-ups of the earliest trip a route's riders can board at a stop (a binary search each) */
  tripSearches = 0;
  /** walking connections relaxed from the stops a round reached by vehicle */
  relaxations = 0;
  /** a window's stops improved on the later minutes', the egress entries read from them, and the improvements they made at the targets */
  improvedStops = 0;
  egressEntries = 0;
  changes = 0;
  /** the changes kept for the percentiles: a target's improvements at one minute are one */
  keptChanges = 0;
  /** targets whose percentiles were selected (a point or a cell, once per window) */
  targets = 0;

  /** These counts plus `other`'s (a bench's threads summed). */
  add(other: WorkCounts): void {
    for (const key of Object.keys(this) as (keyof WorkCounts)[]) (this[key] as number) += other[key] as number;
  }
}
