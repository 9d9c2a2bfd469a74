/**
 * The reload watcher and a coverage's point-set files: a change is loaded once two checks in a row
 * see the same state (a file still being written is not read), and a load that met a file changing
 * (the point-set reader refuses a file changed while it was read) is followed by another once the
 * file has settled. The checks are called by hand: no clock.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Coverage } from '../../../src/service/coverage-registry.js';
import { CoverageReloader } from '../../../src/service/coverage-reloader.js';
import { readPointSet } from '../../../src/analysis/point-set-reader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-reloader-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const file = path.join(dir, 'hexgrid.csv');
const coverage = { id: 'poa', config: { id: 'poa', gtfs: [], pointSets: [{ name: 'hexgrid', file }] } } as unknown as Coverage;

test('a point-set file is loaded once it has settled, never half-written', async () => {
  writeFileSync(file, 'id,lon,lat,jobs\na,1,2,3\n');
  /** per load: the ids read, or the refusal */
  const loads: (string[] | string)[] = [];
  let loading: Promise<boolean> = Promise.resolve(true);
  let whileRead: (() => void) | undefined;
  const reloader = new CoverageReloader(coverage, {
    watchIntervalSec: 0,
    load: (_c, _reason) => {
      const report = new LoadReport(() => whileRead?.());
      loading = readPointSet({ name: 'hexgrid', file }, report).then(
        (set) => (loads.push(set.ids), true),
        (e: Error) => (loads.push(e.message.slice(file.length + 2, file.length + 27)), false),
      );
      return loading;
    },
  });
  /** the load under way finished, and the reloader with it */
  const loaded = async () => {
    await loading;
    await new Promise((resolve) => setImmediate(resolve));
  };
  assert.equal(reloader.check(), false); // unchanged since the reloader was made
  // a writer under way: each check sees another state, nothing is loaded
  appendFileSync(file, 'b,1,2,3\n');
  assert.equal(reloader.check(), false);
  appendFileSync(file, 'c,1,2');
  assert.equal(reloader.check(), false);
  appendFileSync(file, ',3\n');
  assert.equal(reloader.check(), false);
  // two checks in a row see the same file: loaded whole
  assert.equal(reloader.check(), true);
  await loaded();
  assert.deepEqual(loads, [['a', 'b', 'c']]);
  assert.equal(reloader.check(), false);

  // a writer that goes on while the file is read (d's bad row is reported mid-read): the read is refused
  appendFileSync(file, 'd,1,2,x\n');
  whileRead = () => {
    whileRead = undefined;
    appendFileSync(file, 'e,1,2,3\n');
  };
  assert.equal(reloader.check(), false);
  assert.equal(reloader.check(), true);
  await loaded();
  assert.deepEqual(loads[1], 'changed while it was read');
  // the watcher kept the state from before that load: it sees the change, and loads once settled
  assert.equal(reloader.check(), false);
  assert.equal(reloader.check(), true);
  await loaded();
  assert.deepEqual(loads[2], ['a', 'b', 'c', 'e']);
  assert.equal(reloader.check(), false);
  assert.equal(loads.length, 3);
});
