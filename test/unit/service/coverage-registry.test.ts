/** A coverage's swap listeners: what is made ahead of the first request sees each generation swapped in. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Coverage } from '../../../src/service/coverage-registry.js';
import type { Generation } from '../../../src/service/generation.js';

test('each listener sees every generation swapped in after it was added, once it is current', () => {
  const coverage = new Coverage({ id: 'c', gtfs: [] });
  const first = { number: 1 } as Generation;
  const second = { number: 2 } as Generation;
  coverage.swap(first);
  const seen: [number, number | undefined][] = [];
  coverage.onSwap((g) => seen.push([g.number, coverage.generation?.number]));
  coverage.install(second);
  coverage.swap(first);
  assert.deepEqual(seen, [
    [2, 2],
    [1, 1],
  ]);
});
