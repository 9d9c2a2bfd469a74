/**
 * Disruptions files that ask for a year of closures on every BART trip, hot-swapped into a running
 * server while requests keep coming (issue 30, finding 1): each file is applied (or its flood entry
 * skipped unread), the work on the event loop is done a slice at a time with the loop turning in
 * between, and /healthz and trips answer throughout, during each phase of the work.
 *
 * Nothing here reads a clock: how long the work takes and how long it holds the loop depend on the
 * machine, and are what `npm run bench:disruptions-budget` prints. What is checked is what the work
 * does: the entries read, the runs made and the steps counted, and the turns of the event loop (a
 * `setImmediate` that queues itself again, so that it runs once per turn) between its slices. Each
 * check is also made of the same work done in one piece, and must then see no turn in between: the
 * check can tell sliced work from work that holds the loop.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DisruptionSource } from '../../src/service/disruption-source.js';
import type { Coverage } from '../../src/service/coverage-registry.js';
import { DEFAULT_DISRUPTION_FILE_LIMITS, parseDisruptionFile, parseDisruptionFileInSlices, type ParsedDisruptions } from '../../src/live/disruptions/disruption-file.js';
import { plannedRuns, plannedRunsInSlices, type PlannedRuns } from '../../src/live/disruptions/planned-runs.js';
import { DisruptionIndex } from '../../src/live/disruptions/disruption-index.js';
import { DisjointPeriods } from '../../src/live/disruptions/disjoint-periods.js';
import { LevelRuns } from '../../src/ptref/realtime-freshness.js';
import { inOnePiece, inSlices } from '../../src/util/stepwise.js';
import { networkClosures, periodFlood } from '../../bench/disruption-files.js';
import { serveCoverages, type ServedApp } from '../helpers/app.js';
import { SHARED_DATA } from '../helpers/shared-data.js';

let served: ServedApp;
let coverage: Coverage;
let source: DisruptionSource;
let file: string;
let base: string;
const warnings: string[] = [];

/** Runs of BART's 2,641 trips over the feed's production period, all cancelled by a closure of the network for all of 2019. */
const BART_RUNS_2019 = 326_081;
/** Runs of a trip on a service day tested against the closure's periods: those of 2019, and a few at its edges that do not meet them. */
const BART_RUNS_TESTED = 328_315;

before(async () => {
  file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-budget-')), 'disruptions.json');
  writeFileSync(file, '{"disruptions":[]}');
  served = await serveCoverages([{ id: 'bart', gtfs: [path.join(SHARED_DATA, 'rt', 'bart', 'gtfs.zip')], disruptions: { path: file } }]);
  coverage = served.coverages.get('bart')!;
  source = new DisruptionSource(coverage, coverage.config.disruptions!, { info() {}, warn: (_: object, m: string) => void warnings.push(m) });
  coverage.disruptionSource = source;
  assert.equal(await source.load(), true);
  await served.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(served.app.server.address() as AddressInfo).port}`;
});

after(() => served.close());

/**
 * Counts the turns of the event loop until stopped: a `setImmediate` that queues itself again runs
 * once per turn, so work that holds the loop gets no count until it ends. `onTurn` runs at each.
 */
function loopTurns(onTurn: () => void = () => {}) {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    onTurn();
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    get turns() {
      return turns;
    },
    stop() {
      running = false;
    },
  };
}

/** The turns of the event loop taken while `work` runs (it starts within the current turn). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  const counter = loopTurns();
  const value = await work();
  counter.stop();
  return { value, turns: counter.turns };
}

/**
 * Counts what the work does on this thread, from the moment it is installed until `restore`:
 * `entries`, the disruptions-file entries read (each is parsed from its own JSON text,
 * disruption-file.ts, and the entries of `networkClosures` begin with `{"id":"n`); `runs`, the runs
 * of a trip on a service day tested against the closures' periods (`DisjointPeriods.meetAny`, which
 * only the making of the planned runs calls).
 */
function countWork() {
  const parse = JSON.parse;
  const meetAny = DisjointPeriods.meetAny;
  const counts = { entries: 0, runs: 0 };
  JSON.parse = function (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
    if (typeof text === 'string' && text.startsWith('{"id":"n')) counts.entries++;
    return parse.call(JSON, text, reviver);
  } as typeof JSON.parse;
  DisjointPeriods.meetAny = (lists, from, to) => {
    counts.runs++;
    return meetAny.call(DisjointPeriods, lists, from, to);
  };
  return {
    counts,
    restore() {
      JSON.parse = parse;
      DisjointPeriods.meetAny = meetAny;
    },
  };
}

/**
 * How `work` spread what it counts (`entries` or `runs`) over the turns of the event loop:
 * `slices`, the runs of counts with no turn in between; `largest`, the most counted between two
 * turns; `total`, all counted.
 */
async function slicesOf<T>(what: 'entries' | 'runs', work: () => Promise<T>): Promise<{ value: T; total: number; slices: number; largest: number }> {
  const probe = countWork();
  const atTurns: number[] = [0];
  const counter = loopTurns(() => atTurns.push(probe.counts[what]));
  try {
    const value = await work();
    atTurns.push(probe.counts[what]);
    let slices = 0;
    let largest = 0;
    for (let i = 1; i < atTurns.length; i++) {
      const done = atTurns[i]! - atTurns[i - 1]!;
      if (done > 0) slices++;
      largest = Math.max(largest, done);
    }
    return { value, total: probe.counts[what], slices, largest };
  } finally {
    counter.stop();
    probe.restore();
  }
}

describe('a file of 50,000 closures of the network, each phase of its reading on the event loop', () => {
  const text = networkClosures(50_000);
  let parsed: ParsedDisruptions;
  let planned: PlannedRuns;

  test('its entries are read a slice at a time, the loop turning between slices (read in one piece: no turn)', async (t) => {
    const { ref, tt } = coverage.generation!;
    const sliced = await slicesOf('entries', () => parseDisruptionFileInSlices(text, file, ref, tt.timezone, DEFAULT_DISRUPTION_FILE_LIMITS));
    parsed = sliced.value;
    assert.equal(parsed.disruptions.length, 50_000);
    assert.deepEqual(parsed.problems, []);
    assert.equal(sliced.total, 50_000, 'each entry read once on this thread');
    assert.ok(sliced.slices >= 4, `${sliced.slices} slices`);
    assert.ok(sliced.largest < 50_000 / 2, `${sliced.largest} entries read between two turns`);
    t.diagnostic(`${sliced.slices} slices, at most ${sliced.largest} entries read between two turns`);
    // the same reading in one piece, the whole text parsed on this thread: the loop never turns
    const whole = await turnsDuring(async () => parseDisruptionFile(text, file, ref, tt.timezone, DEFAULT_DISRUPTION_FILE_LIMITS));
    assert.equal(whole.turns, 0);
    assert.deepEqual(whole.value, parsed);
  });

  test('the runs they cancel are made a slice at a time, the loop turning between slices, the steps counted as in one piece (in one piece: one slice)', async (t) => {
    const g = coverage.generation!;
    const budget = { maxRuns: 2_000_000, maxSteps: DEFAULT_DISRUPTION_FILE_LIMITS.maxExpansionSteps };
    const sliced = await slicesOf('runs', () => plannedRunsInSlices(g.ref, parsed.disruptions, g.productionStartDay, g.productionEndDay, budget));
    planned = sliced.value;
    t.diagnostic(`${sliced.slices} slices, at most ${sliced.largest} runs tested between two turns, ${planned.steps} steps`);
    assert.equal(planned.runs.length, BART_RUNS_2019);
    assert.ok(planned.runs.every((r) => r.cancelled), 'every run cancelled');
    assert.deepEqual(planned.problems, []);
    assert.equal(sliced.total, BART_RUNS_TESTED, 'each run of a trip on a service day tested once');
    // the 50,000 closures of one object merged into one list of periods, a step per list and per run tested
    assert.equal(planned.steps, 963_608);
    assert.ok(sliced.slices >= 8, `${sliced.slices} slices`);
    assert.ok(sliced.largest < BART_RUNS_TESTED / 4, `${sliced.largest} runs tested between two turns`);
    // the check on the same work in one piece: every run between the same two turns
    const whole = await slicesOf('runs', async () => plannedRuns(g.ref, parsed.disruptions, g.productionStartDay, g.productionEndDay, budget));
    assert.deepEqual({ slices: whole.slices, largest: whole.largest }, { slices: 1, largest: BART_RUNS_TESTED });
    assert.equal(whole.value.steps, planned.steps, 'the same steps counted');
    assert.equal(whole.value.runs.length, BART_RUNS_2019);
  });

  test('the disruptions are indexed, and the runs filed by trip and day, over turns of the loop (in one piece: no turn)', async (t) => {
    const { ref } = coverage.generation!;
    const index = await turnsDuring(() => DisruptionIndex.inSlices(ref, parsed.disruptions, []));
    // the index yields at least every 2,048 disruptions; the loop turns at a yield once a slice is spent
    t.diagnostic(`${index.turns} turns while indexing`);
    assert.ok(index.turns >= 1, `${index.turns} turns while indexing`);
    assert.equal((await turnsDuring(async () => DisruptionIndex.of(ref, parsed.disruptions, []))).turns, 0);
    const level = await turnsDuring(() => inSlices(LevelRuns.steps(planned.runs)));
    t.diagnostic(`${level.turns} turns while filing the runs`);
    assert.ok(level.turns >= 1, `${level.turns} turns while filing the runs`);
    assert.equal((await turnsDuring(async () => inOnePiece(LevelRuns.steps(planned.runs)))).turns, 0);
    const someRun = planned.runs[12_345]!;
    assert.equal(level.value.of(someRun.trip)?.get(someRun.day), someRun);
  });
});

/** One request after the other until stopped: each answer's status, the work counted when it came, and whether the swap had ended. */
function requestLoop(urls: string[], counts: { entries: number; runs: number }, swapped: () => boolean) {
  let running = true;
  const answers: { status: number; entries: number; runs: number; swapped: boolean }[] = [];
  const done = (async () => {
    for (let i = 0; running; i++) {
      const res = await fetch(`${base}${urls[i % urls.length]}`);
      await res.arrayBuffer();
      answers.push({ status: res.status, ...counts, swapped: swapped() });
    }
  })();
  return {
    answers,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** One hot swap of `text` under a request loop: whether it applied, the work counted, the answers given before the swap ended. */
async function swap(text: string) {
  writeFileSync(file, text);
  const probe = countWork();
  let swapped = false;
  const loop = requestLoop(['/healthz', '/v1/coverage/bart/trips?count=1'], probe.counts, () => swapped);
  try {
    while (loop.answers.length < 2) await new Promise((resolve) => setImmediate(resolve));
    const answeredBefore = loop.answers.length;
    const applied = await source.load();
    swapped = true;
    await loop.stop();
    const during = loop.answers.slice(answeredBefore).filter((a) => !a.swapped);
    return { applied, ...probe.counts, answers: loop.answers, during };
  } finally {
    probe.restore();
  }
}

const closures: [string, number][] = [
  ['500 closures of the whole network for 2019', 500],
  ['2,000 closures', 2000],
  ['50,000 closures (8.9 MB)', 50_000],
];

for (const [what, count] of closures) {
  test(`${what}, hot-swapped: applied, /healthz and trips answering while the runs are made, all with 200`, async (t) => {
    const run = await swap(networkClosures(count));
    const whileReading = run.during.filter((a) => a.entries > 0 && a.entries < count).length;
    const whileMaking = run.during.filter((a) => a.runs > 0 && a.runs < BART_RUNS_TESTED).length;
    t.diagnostic(`${run.during.length} answers during the swap, ${whileReading} while the entries were read, ${whileMaking} while the runs were made`);
    assert.ok(run.applied);
    assert.equal(run.entries, count, 'each entry read once on this thread');
    assert.equal(run.runs, BART_RUNS_TESTED, 'each run tested once');
    assert.equal(coverage.generation!.adaptedRuns.length, BART_RUNS_2019);
    assert.equal(source.status().disruptions, count);
    assert.deepEqual([...new Set(run.answers.map((a) => a.status))], [200]);
    // An answer that comes between the first and the last run tested (or entry read) shows the loop
    // serving requests in the middle of that work; work done in one piece leaves no such moment.
    assert.ok(whileMaking >= 1, `${whileMaking} answers while the runs were made`);
    if (count === 50_000) assert.ok(whileReading >= 1, `${whileReading} answers while the entries were read`);
  });
}

test('one closure with 560,000 application periods (29 MB), hot-swapped: applied without the entry, skipped unread, answers meanwhile all 200', async () => {
  const run = await swap(periodFlood(560_000));
  assert.ok(run.applied, 'applied without the entry, skipped unread');
  assert.equal(source.status().disruptions, 0);
  assert.equal(source.status().problems, 1);
  assert.equal(coverage.generation!.adaptedRuns.length, 0);
  assert.deepEqual({ entries: run.entries, runs: run.runs }, { entries: 0, runs: 0 });
  assert.deepEqual([...new Set(run.answers.map((a) => a.status))], [200]);
  // the 29 MB are read from the file and parsed in a worker thread while the loop serves requests
  assert.ok(run.during.length >= 3, `${run.during.length} answers while the file was read`);
  assert.ok(warnings.some((w) => /560000 application periods, more than the 10000 allowed \(disruptions\.maxApplicationPeriods\), skipped/.test(w)), warnings.join('\n'));
});
