/**
 * Skipping a group of tests so that the summary counts it. Node's runner leaves skipped suites out
 * of its `# skipped` figure (it counts tests only), while it prints `# SKIP` for them like for
 * tests: a `describe` with `skip` made the summary say 5 skipped where 16 lines said `# SKIP`. A
 * skipped group is therefore one skipped test of the group's name, which the summary counts; a test
 * (test/unit/architecture/skip-count.test.ts) keeps `describe` free of `skip`.
 */
import { describe, test } from 'node:test';

/** `describe(name, fn)`, or, when `skip` gives a reason, one skipped test named `name` that says it. */
export function describeOrSkip(name: string, skip: string | false | undefined, fn: () => void): void {
  if (skip) test(name, { skip }, () => {});
  else describe(name, fn);
}
