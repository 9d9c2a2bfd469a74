/**
 * One writer per snapshot among replicas sharing a snapshot folder. A replica that finds its
 * coverage's snapshot missing or stale takes `<id>.snapshot.lock` (created with O_EXCL: one process
 * wins) before it compiles the sources and writes the snapshot; the others wait for the lock to go
 * and read the new snapshot. A lock whose holder is gone (same host, no such process) or that is
 * older than STALE_LOCK_MS is taken over: a replica killed while building does not stop the others.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** Longer than any build: a lock this old is a holder that died on another host. */
export const STALE_LOCK_MS = 15 * 60_000;
/** How often a waiting replica looks at the lock. */
export const LOCK_POLL_MS = 200;

interface LockHolder {
  pid: number;
  host: string;
  at: number;
}

export const lockPathOf = (snapshotFile: string): string => `${snapshotFile}.lock`;

/** Take the lock; undefined when another process holds it (and is alive). The result releases it. */
export function tryLock(lockFile: string, now = Date.now()): (() => void) | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      const holder: LockHolder = { pid: process.pid, host: hostname(), at: now };
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (!isStale(lockFile, now)) return undefined;
      rmSync(lockFile, { force: true }); // its holder is gone: take it over (once)
    }
  }
  return undefined;
}

/** Whether the lock's holder is gone: dead on this host, or holding it for longer than any build. */
export function isStale(lockFile: string, now = Date.now()): boolean {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // released meanwhile
    return true; // unreadable: a holder that died between creating and writing it
  }
  if (!(now - holder.at < STALE_LOCK_MS)) return true;
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Resolve once the lock is gone (released, or its holder gone). */
export async function waitForLock(lockFile: string): Promise<void> {
  for (;;) {
    try {
      readFileSync(lockFile);
    } catch {
      return;
    }
    if (isStale(lockFile)) return;
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
  }
}
