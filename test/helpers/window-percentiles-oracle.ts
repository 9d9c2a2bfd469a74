/**
 * A departure window's percentiles the long way, to hold `WindowPercentiles.select` to: every
 * minute's value listed from its definition and the list sorted (R5's rule). A target's value at
 * minute k is the smaller of the direct path and its best arrival among the changes of a minute at
 * or after k, less k minutes, in whole seconds, T when unreached; the p-th percentile is the value
 * of rank ceil(p / 100 × n) in the sorted list (-1 from T on), and its journey in parts that of the
 * earliest minute with that value.
 */
import assert from 'node:assert/strict';
import type { JourneyParts } from '../../src/routing/heat-map-types.js';
import { journeyRecord } from '../../src/routing/journey-paths.js';
import type { WindowChanges } from '../../src/routing/window-changes.js';
import type { ImprovedJourneys, WindowPercentileMaps } from '../../src/routing/window-percentiles.js';

/** The direct path's part of a minute, and an unreached minute's. */
const DIRECT = -1;
const UNREACHED = -2;

/** One percentile at every target: its seconds and, with journeys, its parts as plain arrays. */
interface ReferencePercentile {
  seconds: number[];
  parts?: { access: number[]; wait: number[]; ride: number[]; transfer: number[]; egress: number[]; rides: number[]; trips: number[][] };
}

/** `select`'s arguments, its answer the long way. */
export function referencePercentiles(of: number[], n: number, T: number, changes: WindowChanges, directSec: Int32Array, cells: number, journeys: ImprovedJourneys | null): ReferencePercentile[] {
  const out: ReferencePercentile[] = of.map(() => ({ seconds: [], ...(journeys ? { parts: { access: [], wait: [], ride: [], transfer: [], egress: [], rides: [], trips: [] } } : {}) }));
  const record = journeyRecord();
  for (let c = 0; c < cells; c++) {
    const value: number[] = [];
    const source: number[] = [];
    for (let k = 0; k < n; k++) {
      let best = Infinity;
      let from = -1;
      for (let x = changes.cellStart[c]!; x < changes.cellStart[c + 1]!; x++) {
        if (changes.sorted[2 * x]! >= k && changes.sorted[2 * x + 1]! < best) {
          best = changes.sorted[2 * x + 1]!;
          from = x;
        }
      }
      const whole = Math.floor((best - 600 * k) / 10);
      const direct = directSec[c]! >= 0 ? directSec[c]! : Infinity;
      if (whole < direct && whole < T) {
        value.push(whole);
        source.push(changes.sortedSource[from] ?? 0);
      } else if (whole >= direct && direct < T) {
        value.push(direct);
        source.push(DIRECT);
      } else {
        value.push(T);
        source.push(UNREACHED);
      }
    }
    const sorted = [...value].sort((a, b) => a - b);
    of.forEach((p, i) => {
      const sec = sorted[Math.max(1, Math.ceil((p / 100) * n)) - 1]!;
      out[i]!.seconds.push(sec < T ? sec : -1);
      const parts = out[i]!.parts;
      if (!parts) return;
      const k = sec < T ? value.indexOf(sec) : -1;
      const from = k < 0 ? UNREACHED : source[k]!;
      if (from === UNREACHED) {
        for (const list of [parts.access, parts.wait, parts.ride, parts.transfer, parts.egress, parts.rides]) list.push(-1);
        parts.trips.push([]);
      } else if (from === DIRECT) {
        parts.access.push(sec);
        for (const list of [parts.wait, parts.ride, parts.transfer, parts.egress, parts.rides]) list.push(0);
        parts.trips.push([]);
      } else {
        // the journey reached its stop that long after the reference, k minutes after the window's first
        const atStop = journeys!.improvedSec[from]! - 60 * k;
        journeys!.journeys.read(from, record);
        parts.access.push(record.accessSec);
        parts.ride.push(record.rideSec);
        parts.transfer.push(record.transferSec);
        parts.egress.push(sec - atStop);
        parts.wait.push(atStop - record.accessSec - record.rideSec - record.transferSec);
        parts.rides.push(record.rides);
        parts.trips.push(Array.from(record.trips.subarray(0, record.rides)));
      }
    });
  }
  return out;
}

/** `select`'s answer is the reference's, value for value and part for part. */
export function assertReference(got: WindowPercentileMaps, expected: ReferencePercentile[], what: string): void {
  assert.equal(got.percentiles.length, expected.length);
  got.percentiles.forEach((map, i) => {
    const want = expected[i]!;
    assert.deepEqual(Array.from(map.seconds), want.seconds, `${what}: p${map.percentile}'s seconds`);
    assert.equal(got.reached, expected[0]!.seconds.filter((s) => s >= 0).length, `${what}: targets reached`);
    if (!want.parts) return assert.equal(map.parts, undefined);
    const parts = map.parts as JourneyParts;
    for (const name of ['access', 'wait', 'ride', 'transfer', 'egress', 'rides'] as const) assert.deepEqual(Array.from(parts[name]), want.parts[name], `${what}: p${map.percentile}'s ${name}`);
    const trips = want.parts.trips.map((_, c) => Array.from(parts.trips.subarray(parts.tripsFrom[c]!, parts.tripsFrom[c + 1]!)));
    assert.deepEqual(trips, want.parts.trips, `${what}: p${map.percentile}'s trips`);
  });
}
