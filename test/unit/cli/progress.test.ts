/** Progress for people (src/cli/progress.ts): a bar in place on a terminal, a line per tenth in a log. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workProgress } from '../../../src/cli/progress.js';

/** A stream that keeps what is written, a terminal or not. */
function stream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, text: '', write(chunk: string) { s.text += chunk; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

test('in a log: one line per tenth of the work, each with done/total, the rate and the time left', () => {
  const log = stream(false);
  const progress = workProgress('matrix', 20, 'origins', log);
  for (let done = 1; done <= 20; done++) progress.update(done);
  progress.done();
  const lines = log.text.trim().split('\n');
  // 1/20 is the first tenth's (0 %), then every two origins a new tenth
  assert.equal(lines.length, 11);
  assert.match(lines[0]!, /^matrix: 1\/20 origins, [\d.]+\/s, (\d+ s left|time left unknown)$/);
  assert.match(lines.at(-1)!, /^matrix: 20\/20 origins, [\d.]+\/s, 0 s left$/);
  assert.ok(!log.text.includes('\r'));
});

test('on a terminal: a bar redrawn in place, its last drawing complete, then a line break', () => {
  const tty = stream(true);
  const progress = workProgress('matrix', 4, 'origins', tty);
  for (let done = 1; done <= 4; done++) progress.update(done);
  progress.done();
  const drawings = tty.text.split('\r').filter(Boolean);
  // the first at once, the rest within 100 ms skipped but the last
  assert.equal(drawings.length, 2);
  assert.match(drawings.at(-1)!, /^matrix \[#{30}\] 100% 4\/4 origins, [\d.]+\/s, 0 s left {3}\n$/);
});
