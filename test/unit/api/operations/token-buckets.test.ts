/**
 * The rate limiter's token buckets on a hand-driven clock: the burst, the refill, Retry-After, and
 * memory bounded by evicting idle and least recent clients.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBuckets } from '../../../../src/api/operations/token-buckets.js';

function clocked(ratePerSec: number, burst: number, maxClients?: number) {
  const clock = { t: 1000 };
  const buckets = new TokenBuckets({ ratePerSec, burst, maxClients, nowSec: () => clock.t });
  return { clock, buckets };
}

test('a client sends its burst at once, then waits: Retry-After is the whole seconds until its next token', () => {
  const { clock, buckets } = clocked(2, 3);
  for (let i = 0; i < 3; i++) assert.deepEqual(buckets.take('a'), { allowed: true });
  assert.deepEqual(buckets.take('a'), { allowed: false, retryAfterSec: 1 }); // 0.5 s rounded up
  clock.t += 0.5;
  assert.deepEqual(buckets.take('a'), { allowed: true });
  assert.equal(buckets.take('a').allowed, false);
  clock.t += 10; // refills up to the burst, not beyond
  for (let i = 0; i < 3; i++) assert.equal(buckets.take('a').allowed, true);
  assert.equal(buckets.take('a').allowed, false);
});

test('slow rates give longer Retry-After', () => {
  const { buckets } = clocked(0.1, 1);
  assert.equal(buckets.take('a').allowed, true);
  assert.deepEqual(buckets.take('a'), { allowed: false, retryAfterSec: 10 });
});

test('clients have their own buckets', () => {
  const { buckets } = clocked(1, 1);
  assert.equal(buckets.take('a').allowed, true);
  assert.equal(buckets.take('a').allowed, false);
  assert.equal(buckets.take('b').allowed, true);
});

test('idle clients whose bucket is full again are forgotten as others come', () => {
  const { clock, buckets } = clocked(1, 2);
  for (let i = 0; i < 100; i++) buckets.take(`c${i}`);
  assert.equal(buckets.size, 100);
  clock.t += 5; // every bucket is full again
  for (let i = 0; i < 60; i++) buckets.take(`d${i}`);
  assert.ok(buckets.size < 100, `idle clients evicted (size ${buckets.size})`);
});

test('memory is bounded by maxClients: the least recent client goes, a recent one stays', () => {
  const { buckets } = clocked(1, 2, 50);
  buckets.take('keep');
  buckets.take('keep'); // its bucket is empty: not idle
  for (let i = 0; i < 500; i++) {
    buckets.take(`c${i}`);
    if (i % 10 === 0) buckets.take('keep');
  }
  assert.equal(buckets.size, 50);
  assert.equal(buckets.take('keep').allowed, false, 'still remembered: its bucket is empty');
});

test('a rate of zero or a burst under one is a misuse', () => {
  assert.throws(() => new TokenBuckets({ ratePerSec: 0, burst: 1 }), /ratePerSec must be > 0/);
  assert.throws(() => new TokenBuckets({ ratePerSec: 1, burst: 0 }), /burst >= 1/);
});
