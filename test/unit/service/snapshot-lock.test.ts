/**
 * Replicas sharing a snapshot folder: one of them builds a missing snapshot under the lock, the
 * others wait and read it; a lock left by a dead process is taken over, a live holder's is not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Coverage } from '../../../src/service/coverage-registry.js';
import { snapshotPath } from '../../../src/service/coverage-snapshot.js';
import { loadCoverage } from '../../../src/service/load-coverage.js';
import { isStale, lockPathOf, STALE_LOCK_MS, tryLock } from '../../../src/service/snapshot-lock.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { VALLEY } from '../../helpers/town-app.js';

test('three loaders of one coverage on one snapshot folder: one builds the snapshot, the others wait and read it', async () => {
  const snapshotDir = mkdtempSync(path.join(tmpdir(), 'navette-lock-'));
  const config = { id: 'valley', gtfs: [writeFeed(VALLEY, 'valley')] };
  const waited: string[] = [];
  const loads = await Promise.all(
    [0, 1, 2].map((i) => loadCoverage(new Coverage(config), { snapshotDir, onWaitForSnapshot: () => waited.push(`loader ${i}`) })),
  );
  assert.deepEqual(loads.map((l) => l.from).sort(), ['snapshot', 'snapshot', 'sources']);
  assert.equal(loads.filter((l) => l.snapshotWritten).length, 1, 'one snapshot written');
  assert.equal(waited.length, 2, 'the two others waited for it');
  assert.ok(existsSync(snapshotPath(snapshotDir, 'valley')));
  assert.equal(existsSync(lockPathOf(snapshotPath(snapshotDir, 'valley'))), false, 'the lock is released');
  // each has the same data
  assert.deepEqual(new Set(loads.map((l) => l.generation.tt.trips.ids.length)).size, 1);
});

test('a lock whose holder died is taken over; a live holder keeps it; an old one is stale', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-lock-'));
  const lock = path.join(dir, 'x.snapshot.lock');
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  writeFileSync(lock, JSON.stringify({ pid: Number(dead), host: hostname(), at: Date.now() }));
  assert.equal(isStale(lock), true);
  const release = tryLock(lock);
  assert.ok(release, 'taken over');
  assert.equal(tryLock(lock), undefined, 'held by this live process');
  assert.equal(isStale(lock), false);
  assert.equal(isStale(lock, Date.now() + STALE_LOCK_MS + 1), true, 'older than any build');
  release!();
  assert.equal(existsSync(lock), false);
  // on another host, only the age tells
  writeFileSync(lock, JSON.stringify({ pid: Number(dead), host: `not-${hostname()}`, at: Date.now() }));
  assert.equal(isStale(lock), false);
});
