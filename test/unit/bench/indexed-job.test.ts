/**
 * The matrix Indexed Job's pods as bench/country-shards.ts runs them (bench/indexed-job.ts): the
 * Job's own arguments with the bench's in their place, an even sample of origins, and what the
 * command says of its load and its origins.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evenSample, matrixRunLines, memoryBytes, podArgs, readMatrixJob } from '../../../bench/indexed-job.js';

test("a pod's arguments are the Job's: its window, percentiles and threads kept, the bench's values in place, the completion index the slice", () => {
  const job = readMatrixJob();
  const args = podArgs(job, 1, { coverage: 'country', origins: 'points', shard: '1/2', out: '/tmp/part-1.csv.gz', 'max-duration': '10800' });
  const value = (name: string) => args[args.indexOf(`--${name}`) + 1];
  assert.equal(args[0], 'matrix');
  assert.deepEqual([value('coverage'), value('origins'), value('shard'), value('out'), value('max-duration')], ['country', 'points', '1/2', '/tmp/part-1.csv.gz', '10800']);
  const jobValue = (name: string) => job.args[job.args.indexOf(`--${name}`) + 1];
  for (const kept of ['departure-window', 'percentiles', 'threads', 'datetime']) assert.equal(value(kept), jobValue(kept), kept);
  // each flag once, the Job's order kept and the new ones after
  const flags = args.filter((a) => a.startsWith('--'));
  assert.equal(new Set(flags).size, flags.length);
  assert.ok(flags.indexOf('--coverage') < flags.indexOf('--threads') && flags.indexOf('--threads') < flags.indexOf('--max-duration'));
  // the Job's own slice and part, by the completion index; an unsharded run without --shard
  const own = podArgs(job, 3, {});
  assert.equal(own[own.indexOf('--shard') + 1], `3/${job.completions}`);
  assert.equal(own[own.indexOf('--out') + 1], '/results/matrix-part-3.csv.gz');
  assert.ok(!podArgs(job, 0, {}, ['shard']).includes('--shard'));
});

test('an even sample: the middle of each equal run of the ids, in order; all of them when there are no more', () => {
  const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
  assert.deepEqual(evenSample(ids, 4), ['p1', 'p3', 'p6', 'p8']);
  assert.deepEqual(evenSample(ids, 1), ['p5']);
  assert.deepEqual(evenSample(ids, 10), ids);
  assert.deepEqual(evenSample(ids, 20), ids);
});

test("what the command says: where it loaded from, the load's time and CPU, its origins and destinations and their time", () => {
  const stderr = [
    'loading country…',
    'loaded-cpu 3.3',
    'country loaded from its snapshot in 4.8 s',
    'matrix: 10/66 origins',
    '/tmp/m.csv.gz: 66 origins × 133 destinations in 49.3 s (writing 0.01 s, 8778 rows, 877800 rows/s), peak memory 930 MB',
    'figures 950000 25.5',
  ].join('\n');
  assert.deepEqual(matrixRunLines(stderr), { loadedFrom: 'snapshot', loadSeconds: 4.8, loadCpu: 3.3, origins: 66, destinations: 133, computeSeconds: 49.3 });
  assert.throws(() => matrixRunLines('loading country…\nnavette matrix: --datetime 2019: bad'), /did not say what it did: .*bad/);
});

test("a pod's memory quantities in bytes: binary and decimal units, none, and what is not one", () => {
  assert.deepEqual(['2Gi', '512Mi', '1G', '1.5Gi', '1000'].map(memoryBytes), [2 * 2 ** 30, 512 * 2 ** 20, 1e9, 1.5 * 2 ** 30, 1000]);
  assert.deepEqual([undefined, '2GB', 'lots'].map(memoryBytes), [undefined, undefined, undefined]);
  assert.ok(memoryBytes(readMatrixJob().resources.limits?.['memory'])! > 0, 'the Job limits its pods\' memory');
});
