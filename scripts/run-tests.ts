/**
 * `npm test`: every suite under node's test runner, two files at a time. The end-to-end suites
 * (test/e2e/) read the real feeds of ../shared/data; on a clone without that folder they are left
 * out with one notice (and the few unit tests on real captures skip themselves, see
 * test/helpers/shared-data.ts), except under CI=true, where the folder's absence fails the run.
 * Arguments replace the default list of folders (`npm test -- dist/test/unit/routing`).
 */
import { spawn } from 'node:child_process';
import { SHARED_DATA_MISSING, sharedDataRequired } from '../test/helpers/shared-data.js';

const SUITES = ['dist/test/unit', 'dist/test/contract', 'dist/test/serve', 'dist/test/browser'];
const REAL_FEED_SUITES = ['dist/test/e2e'];

function suites(): string[] {
  const asked = process.argv.slice(2);
  if (asked.length > 0) return asked;
  if (!SHARED_DATA_MISSING) return [...SUITES, ...REAL_FEED_SUITES];
  if (sharedDataRequired()) {
    console.error(`${SHARED_DATA_MISSING.replace(/: .*/, '')}: CI=true requires the real feeds, failing`);
    process.exit(1);
  }
  console.log(SHARED_DATA_MISSING);
  return SUITES;
}

const child = spawn(process.execPath, ['--test', '--test-concurrency=2', ...suites()], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
