/**
 * The planned runs and the disruptions index sized by the timetable, not by the file (issue 30):
 * random files against plain implementations of the rules, the steps of a thousand copies of one
 * disruption against those of one, and the budget that refuses a file asking for too much.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { Referential } from '../../../src/ptref/referential.js';
import { serviceRunsOn } from '../../../src/model/timetable.js';
import { parseDisruptionFile } from '../../../src/live/disruptions/disruption-file.js';
import type { Disruption } from '../../../src/live/disruptions/disruption.js';
import { DisruptionIndex } from '../../../src/live/disruptions/disruption-index.js';
import { plannedRuns, PlannedRunsBudgetError } from '../../../src/live/disruptions/planned-runs.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { mulberry32 } from '../../helpers/random.js';
import { TOWN } from '../../helpers/town-app.js';

const PARIS = 'Europe/Paris';
const FIRST_DAY = dayNumber(2024, 1, 2);
const LAST_DAY = dayNumber(2024, 2, 10);
let town: Referential;

before(async () => {
  town = new Referential(await loadTimetable([writeFeed(TOWN, 'town')], { report: new LoadReport() }));
});

const OBJECTS: [string, string][] = [
  ['network', 'RED'],
  ['network', 'BLUE'],
  ['line', 'B1'],
  ['line', 'B2'],
  ['line', 'N1'],
  ['route', 'route:B1:0'],
  ['route', 'route:B1:1'],
  ['trip', 'B1-0900'],
  ['trip', 'N1-2530'],
  ['trip', 'T1-FREQ'],
  ['stop_area', 'stop_area:ECOLE'],
  ['stop_area', 'GARE'],
  ['stop_point', 'MARCHE'],
  ['stop_point', 'PARC'],
  ['stop_point', 'MUSEE'],
];

/** A random file: disruptions of random effects on random objects, with random periods in January 2024 (or none). */
function randomFile(random: () => number, count: number): Disruption[] {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const stamp = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 19).replace(/[-:]/g, '');
  const jan1 = Date.UTC(2024, 0, 1) / 1000;
  const entries = Array.from({ length: count }, (_, i) => {
    const periods = Array.from({ length: Math.floor(random() * 4) }, () => {
      // a third of them in the small hours, where the night runs of the day before are
      const begin = jan1 + (random() < 0.3 ? Math.floor(random() * 45) * 86400 - 3600 + Math.floor(random() * 3 * 3600) : Math.floor(random() * 45 * 86400));
      return { begin: stamp(begin), end: stamp(begin + Math.floor(random() * pick([600, 7200, 86400, 5 * 86400]))) };
    });
    return {
      id: `d${i}`,
      tags: random() < 0.3 ? [pick(['works', 'strike'])] : [],
      severity: { effect: random() < 0.8 ? 'NO_SERVICE' : 'SIGNIFICANT_DELAYS' },
      ...(periods.length > 0 ? { application_periods: periods } : {}),
      impacted_objects: Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const [type, id] = pick(OBJECTS);
        return { type, id };
      }),
    };
  });
  const { disruptions, problems } = parseDisruptionFile(JSON.stringify({ disruptions: entries }), 'random.json', town, PARIS);
  assert.deepEqual(problems, []);
  return disruptions;
}

const meets = (d: Disruption, from: number, to: number) => d.periods.some((p) => p.begin <= to && p.end >= from);
const isStop = (o: Disruption['impacted'][number]) => o.type === 'stop_point' || o.type === 'stop_area';
/** every trip the disruption impacts (the index's) */
const tripsOfObject = (d: Disruption) => new Set(d.impacted.flatMap((o) => [...town.toTrips(o.type, Uint32Array.of(o.index))]));
/** the trips it cancels whole (a trip, route, line or network) */
const cancelledTrips = (d: Disruption) => new Set(d.impacted.filter((o) => !isStop(o)).flatMap((o) => [...town.toTrips(o.type, Uint32Array.of(o.index))]));
const stopsOfObject = (d: Disruption) => new Set(d.impacted.filter(isStop).flatMap((o) => [...town.convert(o.type, 'stop_point', Uint32Array.of(o.index))]));

/** The rules of planned-runs.ts written plainly: every run of every trip on every day, against every disruption. */
function plainPlannedRuns(disruptions: Disruption[]): string[] {
  const { tt, days } = town;
  const noService = disruptions.filter((d) => d.severity.effect === 'NO_SERVICE');
  const out: string[] = [];
  for (let trip = 0; trip < tt.trips.ids.length; trip++) {
    const first = tt.trips.stopTimeOffset[trip]!;
    const count = tt.trips.stopTimeOffset[trip + 1]! - first;
    const frequencies = [];
    for (let f = tt.trips.frequencyOffset[trip]!; f < tt.trips.frequencyOffset[trip + 1]!; f++) frequencies.push(f);
    const travel = tt.stopTimes.arrivalSec[first + count - 1]! - tt.stopTimes.departureSec[first]!;
    const start = frequencies.length ? Math.min(...frequencies.map((f) => tt.frequencies.startSec[f]!)) : tt.stopTimes.departureSec[first]!;
    const end = frequencies.length ? Math.max(...frequencies.map((f) => tt.frequencies.endSec[f]!)) + travel : tt.stopTimes.arrivalSec[first + count - 1]!;
    const pattern = tt.trips.pattern[trip]!;
    const stops = tt.patterns.stops.subarray(tt.patterns.stopOffset[pattern]!, tt.patterns.stopOffset[pattern + 1]!);
    for (let day = FIRST_DAY; day <= LAST_DAY; day++) {
      if (!serviceRunsOn(tt, tt.trips.service[trip]!, day)) continue;
      const origin = days.origin(tt.agencyTimezone[tt.trips.agency[trip]!]!, day);
      const cancelled = noService.some((d) => cancelledTrips(d).has(trip) && meets(d, origin + start, origin + end));
      const skipped = new Array<number>(count).fill(0);
      if (!cancelled && frequencies.length === 0) {
        for (let k = 0; k < count; k++) {
          const at = origin + tt.stopTimes.arrivalSec[first + k]!;
          const leave = origin + tt.stopTimes.departureSec[first + k]!;
          if (noService.some((d) => stopsOfObject(d).has(stops[k]!) && meets(d, at, leave))) skipped[k] = 1;
        }
      }
      const changed = cancelled || skipped.includes(1);
      if (!changed) continue;
      const served = skipped.filter((s) => s === 0).length;
      out.push(`${tt.trips.ids[trip]} ${day} ${cancelled || served < 2 ? 'cancelled' : skipped.join('')}`);
    }
  }
  return out.sort();
}

const summary = (runs: ReturnType<typeof plannedRuns>['runs']) =>
  runs.map((r) => `${town.tt.trips.ids[r.trip]} ${r.day} ${r.cancelled ? 'cancelled' : [...r.skipped].join('')}`).sort();

describe('planned runs against the plain rules', () => {
  test('300 random files give the runs of the plain implementation', () => {
    const random = mulberry32(30);
    for (let file = 0; file < 300; file++) {
      const disruptions = randomFile(random, 1 + Math.floor(random() * 6));
      assert.deepEqual(summary(plannedRuns(town, disruptions, FIRST_DAY, LAST_DAY).runs), plainPlannedRuns(disruptions), `file ${file}: ${JSON.stringify(disruptions.map((d) => [d.severity.effect, d.impacted, d.periods]))}`);
    }
  });

  test('a thousand copies of one closure cost about a thousand steps more than one, not a thousand times its runs', () => {
    const entry = (i: number) => ({ id: `n${i}`, severity: { effect: 'NO_SERVICE' }, impacted_objects: [{ type: 'network', id: 'RED' }] });
    const parse = (n: number) => parseDisruptionFile(JSON.stringify({ disruptions: Array.from({ length: n }, (_, i) => entry(i)) }), 'f.json', town, PARIS).disruptions;
    const one = plannedRuns(town, parse(1), FIRST_DAY, LAST_DAY);
    const thousand = plannedRuns(town, parse(1000), FIRST_DAY, LAST_DAY);
    assert.ok(one.runs.length > 50, `${one.runs.length} runs`);
    assert.deepEqual(summary(thousand.runs), summary(one.runs));
    // one period per copy to merge and one object to name: two steps a copy
    assert.ok(thousand.steps - one.steps <= 2 * 1000, `${one.steps} steps for one, ${thousand.steps} for a thousand`);
  });

  test('past its budget the expansion throws, and the budget is counted, not timed', () => {
    const disruptions = randomFile(mulberry32(7), 20);
    const { steps } = plannedRuns(town, disruptions, FIRST_DAY, LAST_DAY);
    assert.ok(steps > 100);
    assert.doesNotThrow(() => plannedRuns(town, disruptions, FIRST_DAY, LAST_DAY, { maxRuns: 1e6, maxSteps: steps }));
    assert.throws(() => plannedRuns(town, disruptions, FIRST_DAY, LAST_DAY, { maxRuns: 1e6, maxSteps: steps - 1 }), PlannedRunsBudgetError);
  });
});

describe('the disruptions index against the plain rules', () => {
  test('trips of a disruption, of tags, in force within a window; the first disruptions of some trips, of some lines', () => {
    const random = mulberry32(31);
    const ascending = (s: Iterable<number>) => [...s].sort((a, b) => a - b);
    for (let file = 0; file < 100; file++) {
      const disruptions = randomFile(random, 1 + Math.floor(random() * 8));
      const index = DisruptionIndex.of(town, disruptions, []);
      const plainTrips = (keep: (d: Disruption) => boolean) => ascending(new Set(disruptions.filter(keep).flatMap((d) => [...tripsOfObject(d)])));
      disruptions.forEach((d, i) => assert.deepEqual([...index.tripsOf(i)], plainTrips((e) => e === d)));
      assert.deepEqual([...index.tripsTagged(['works'])], plainTrips((d) => d.tags.includes('works')));
      assert.deepEqual([...index.tripsTagged(['works', 'strike'])], plainTrips((d) => d.tags.length > 0));
      assert.deepEqual([...index.noServiceTrips], plainTrips((d) => d.severity.effect === 'NO_SERVICE'));
      const since = Date.UTC(2024, 0, 1 + Math.floor(random() * 40)) / 1000;
      const until = since + Math.floor(random() * 3 * 86400);
      assert.deepEqual([...index.tripsInForceWithin(since, until)], plainTrips((d) => meets(d, since, until)));
      const trips = Uint32Array.from(new Set(Array.from({ length: 3 }, () => Math.floor(random() * town.tt.trips.ids.length)))).sort();
      const impacting = ascending(disruptions.flatMap((d, i) => ([...trips].some((t) => tripsOfObject(d).has(t)) ? [i] : [])));
      assert.deepEqual([...index.firstOfTrips(trips, 3)], impacting.slice(0, 3));
      assert.deepEqual([...index.ofTrip(trips[0]!)], ascending(disruptions.flatMap((d, i) => (tripsOfObject(d).has(trips[0]!) ? [i] : []))));
      const lines = Uint32Array.from([town.indexOf('line', 'B1'), town.indexOf('line', 'N1')]).sort();
      const naming = ascending(disruptions.flatMap((d, i) => (d.impacted.some((o) => o.type === 'line' && lines.includes(o.index)) ? [i] : [])));
      assert.deepEqual([...index.firstNaming('line', lines, 2)], naming.slice(0, 2));
    }
  });
});
