/**
 * The real feeds shared with the project (read-only, beside the checkout: ../shared/data; see the
 * README, "Test data"). The end-to-end tests (test/e2e/) and a few unit tests read them. On a clone
 * without the folder those tests are skipped with one notice (scripts/run-tests.ts); under CI=true
 * its absence is a failure, so a CI that lost the data cannot pass by skipping.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The folder; `NAVETTE_SHARED_DATA` points elsewhere (for example to try the notice). */
export const SHARED_DATA = path.resolve(process.env['NAVETTE_SHARED_DATA'] ?? path.join(process.cwd(), '../shared/data'));

/** The one line that says why the tests on real feeds do not run, or undefined when they do. */
export const SHARED_DATA_MISSING: string | undefined = existsSync(SHARED_DATA)
  ? undefined
  : `${SHARED_DATA} not found: the tests on real feeds (test/e2e/ and the real captures and extracts of test/unit/) are skipped`;

/** Under CI the data must be there: its absence fails the run instead of skipping. */
export function sharedDataRequired(): boolean {
  return process.env['CI'] === 'true';
}
