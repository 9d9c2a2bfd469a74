// `npm start`'s build: the server's sources only (tsconfig.build.json, incremental), and nothing at
// all when no source, configuration or lockfile changed since the last build that succeeded, this
// one or `npm run build`, which ends with `--full-build-done` (a
// stamp file's time against the newest of theirs: a few milliseconds, where even an incremental
// compile reads every file). Plain JavaScript: it runs before the build.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const STAMP = 'dist/.server-built';
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The newest modification time (ms) under a file or folder. */
function newest(file) {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

// after `npm run build` (every source, tests and benches too): the server is built, say so
if (process.argv.includes('--full-build-done')) {
  writeFileSync(STAMP, '');
  process.exit(0);
}

const builtAt = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -Infinity;
const changedAt = Math.max(...INPUTS.filter((f) => existsSync(f)).map(newest));
if (changedAt < builtAt) {
  console.log('server build up to date');
  process.exit(0);
}
const started = Date.now();
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
writeFileSync(STAMP, '');
// the stamp carries the time the build started: a source saved during the build is newer
const at = new Date(started);
utimesSync(STAMP, at, at);
console.log(`server built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
