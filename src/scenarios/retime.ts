/**
 * The time arithmetic of the modifications (docs/scenarios.md), on one trip's stop times: pure
 * functions of arrays of whole seconds. A trip's times are rebuilt from its first arrival by adding,
 * stop after stop, its dwell and the next hop; rounding is to the nearest second, halves up.
 */

export interface StopTimes {
  arrival: number[];
  departure: number[];
}

/** Rebuild times from the first arrival and per-stop dwells and per-hop running times. */
export function timesFrom(firstArrival: number, dwells: readonly number[], hops: readonly number[]): StopTimes {
  const arrival: number[] = [];
  const departure: number[] = [];
  let t = firstArrival;
  for (let s = 0; s < dwells.length; s++) {
    arrival.push(t);
    t += dwells[s]!;
    departure.push(t);
    if (s < hops.length) t += hops[s]!;
  }
  return { arrival, departure };
}

export function dwellsOf(t: StopTimes): number[] {
  return t.arrival.map((a, s) => t.departure[s]! - a);
}

export function hopsOf(t: StopTimes): number[] {
  const hops: number[] = [];
  for (let s = 0; s + 1 < t.arrival.length; s++) hops.push(t.arrival[s + 1]! - t.departure[s]!);
  return hops;
}

/** adjust-speed: each chosen hop's running time divided by `scale` (dwells too with `scaleDwells`). */
export function scaleSpeed(t: StopTimes, scale: number, hopChosen: (s: number) => boolean, scaleDwells: boolean): StopTimes {
  const dwells = dwellsOf(t).map((d) => (scaleDwells ? Math.round(d / scale) : d));
  const hops = hopsOf(t).map((h, s) => (hopChosen(s) ? Math.round(h / scale) : h));
  return timesFrom(t.arrival[0]!, dwells, hops);
}

/** adjust-dwell-time: the dwell at each chosen stop set to `dwellSecs`, or multiplied by `scale`. */
export function adjustDwells(t: StopTimes, stopChosen: (s: number) => boolean, dwellSecs: number | null, scale: number | null): StopTimes {
  const dwells = dwellsOf(t).map((d, s) => (!stopChosen(s) ? d : dwellSecs !== null ? dwellSecs : Math.round(d * scale!)));
  return timesFrom(t.arrival[0]!, dwells, hopsOf(t));
}

/**
 * remove-stops: the stops flagged leave the trip. The first kept stop keeps its times; between two
 * kept stops the hop is the old time between them less the removed stops' dwells, less `savedSec`
 * per removed stop, and at least 1 s where stops were removed. Returns the kept positions and their times.
 */
export function removeStops(t: StopTimes, removed: (s: number) => boolean, savedSec: number): { kept: number[]; times: StopTimes } {
  const kept: number[] = [];
  for (let s = 0; s < t.arrival.length; s++) if (!removed(s)) kept.push(s);
  if (kept.length === 0) return { kept, times: { arrival: [], departure: [] } };
  const dwells = kept.map((s) => t.departure[s]! - t.arrival[s]!);
  const hops: number[] = [];
  for (let k = 0; k + 1 < kept.length; k++) {
    const a = kept[k]!;
    const b = kept[k + 1]!;
    let run = t.arrival[b]! - t.departure[a]!;
    for (let s = a + 1; s < b; s++) run -= t.departure[s]! - t.arrival[s]! + savedSec;
    // the floor holds where stops were taken out: a hop of 0 s the feed gives stays as it is
    hops.push(b > a + 1 ? Math.max(1, run) : run);
  }
  return { kept, times: timesFrom(t.arrival[kept[0]!]!, dwells, hops) };
}

/**
 * reroute: positions [begin, end) of the trip are replaced by `inserted` new stops. With a `from`
 * anchor (position begin - 1) its dwell becomes dwellTimes[0] and the times before it are kept; with a
 * `to` anchor (position end) its dwell becomes the last of dwellTimes. Without `from`, the arrival
 * at `to` is kept and the new stops are timed backwards from it. Returns the new trip's times, its
 * positions being: the kept start, the new stops, the kept end.
 */
export function rerouteTimes(
  t: StopTimes,
  begin: number,
  end: number,
  inserted: number,
  hasFrom: boolean,
  hasTo: boolean,
  dwellTimes: readonly number[],
  hopTimes: readonly number[],
): StopTimes {
  const oldDwells = dwellsOf(t);
  const oldHops = hopsOf(t);
  const n = t.arrival.length;
  // the new trip's dwells and hops, stop after stop
  const dwells: number[] = [];
  const hops: number[] = [];
  const headEnd = hasFrom ? begin - 1 : 0; // positions [0, headEnd) keep their dwell and following hop
  for (let s = 0; s < headEnd; s++) {
    dwells.push(oldDwells[s]!);
    hops.push(oldHops[s]!);
  }
  // the anchors and the new stops: dwellTimes and hopTimes in turn
  for (let k = 0; k < dwellTimes.length; k++) {
    dwells.push(dwellTimes[k]!);
    if (k < hopTimes.length) hops.push(hopTimes[k]!);
  }
  // after `to`, the old hops and dwells
  const tail = hasTo ? end + 1 : n;
  if (hasTo) for (let s = end; s < n - 1; s++) hops.push(oldHops[s]!);
  for (let s = tail; s < n; s++) dwells.push(oldDwells[s]!);
  if (hasFrom) return timesFrom(t.arrival[0]!, dwells, hops);
  // no `from`: the arrival at `to` is kept (its position in the new trip: the inserted stops)
  const draft = timesFrom(0, dwells, hops);
  const shift = t.arrival[end]! - draft.arrival[inserted]!;
  return { arrival: draft.arrival.map((a) => a + shift), departure: draft.departure.map((d) => d + shift) };
}

/** adjust-frequency: the trip's times shifted to leave its first stop at `start`, the dwell there dropped. */
export function shiftedTo(t: StopTimes, start: number): StopTimes {
  const offset = t.departure[0]!;
  const arrival = t.arrival.map((a, s) => (s === 0 ? start : a - offset + start));
  const departure = t.departure.map((d, s) => (s === 0 ? start : d - offset + start));
  return { arrival, departure };
}
