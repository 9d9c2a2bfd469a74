/**
 * A request of many origins (`travel_time_matrix`, `accessibility?origins=`) whose client goes away
 * stops starting origins: on the line city over real HTTP, with a runner that counts the origins it
 * is given and takes a few milliseconds over each, the count stops growing soon after the client
 * closes its connection, far below the origins asked for, the server logs it and answers the next
 * request. Past its deadline (counted on a clock of origins started, not timed) it stops likewise.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { lineCity, lonAt } from '../../../helpers/line-city.js';
import { lazyInProcessRunner } from '../../../../src/maps/lazy-runner.js';
import { DEFAULT_LIMITS, MAX_ACCESSIBILITY_SEARCHES, MAX_MATRIX_ORIGINS } from '../../../../src/service/limits.js';
import type { HeatMapRunner } from '../../../../src/maps/heat-map-runner.js';
import { matrixCommandParams } from '../../../../src/queries/analysis-params.js';
import { originJob, originTimes } from '../../../../src/queries/origin-rows.js';
import { parseParams } from '../../../../src/queries/param-table.js';
import { QueryError } from '../../../../src/queries/query-errors.js';

/** the origins of a regional request (one departure each), and of a matrix */
const REGIONAL_ORIGINS = MAX_ACCESSIBILITY_SEARCHES;
const MATRIX_ORIGINS = MAX_MATRIX_ORIGINS;
/** each origin's computation is held this long: a request takes its origins × this / the origins in flight */
const HOLD_MS = 10;

let started = 0;
const inner = lazyInProcessRunner(DEFAULT_LIMITS);
const counting: HeatMapRunner = {
  grid: (...args) => inner.grid(...args),
  points: async (...args) => {
    // origins only: a matrix's shared tables are prepared first, by two computations of their own
    if (args[3].kind !== 'prepare') started++;
    await sleep(HOLD_MS);
    return inner.points(...args);
  },
  close: () => inner.close(),
};
const pointsCsv = (count: number) => ['id,lon,lat,n', ...Array.from({ length: count }, (_, k) => `m${k},${lonAt(k % 3000)},0,1`)].join('\n') + '\n';
/** the server's log lines, as JSON */
const logged: { statusCode?: number; url?: string; msg?: string }[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line) logged.push(JSON.parse(line));
    done();
  },
});
const served = await lineCity({ regional: pointsCsv(REGIONAL_ORIGINS), matrix: pointsCsv(MATRIX_ORIGINS) }, { heatMaps: counting, logger: { level: 'info', stream: logStream } });
await served.app.listen({ port: 0, host: '127.0.0.1' });
const port = (served.app.server.address() as AddressInfo).port;

after(async () => {
  await served.close();
  await inner.close();
});

/** GET `path`, the client closing its connection once `closeWhen` holds (checked every few ms); resolves when it closed. */
function abandon(path: string, closeWhen: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path }, (res) => reject(new Error(`answered ${res.statusCode} before the client left`)));
    req.on('error', () => {}); // the client's own close
    const poll = setInterval(() => {
      if (!closeWhen()) return;
      clearInterval(poll);
      req.destroy();
      resolve();
    }, 2);
  });
}

async function stopsAfterClose(path: string, origins: number) {
  const before = started;
  await abandon(path, () => started - before >= 20);
  // the origins already given to the runner finish; then none starts
  await sleep(300);
  const settled = started - before;
  await sleep(300);
  assert.equal(started - before, settled, 'origins still start after the client left');
  assert.ok(settled < origins / 2, `${settled} of ${origins} origins started`);
  // the stopped work is in the log, with nginx's status for a client that closed its request
  const line = logged.find((l) => l.statusCode === 499 && l.url === path);
  assert.ok(line, `no 499 line for ${path}`);
  assert.match(line.msg!, /request abandoned: the client closed the connection before the answer, its work stopped/);
  // the server is whole: the next request is answered
  const res = await fetch(`http://127.0.0.1:${port}/v1/coverage/line/accessibility?from=${lonAt(100)};0&datetime=20240102T080000&opportunities[]=places:schools`);
  assert.equal(res.status, 200);
}

const at0800 = 'datetime=20240102T080000&walking_speed=1';

test('a travel-time matrix whose client leaves stops starting origins', async () => {
  await stopsAfterClose(`/v1/coverage/line/travel_time_matrix?origins=matrix&destinations=places&${at0800}`, MATRIX_ORIGINS);
});

test('a regional accessibility whose client leaves stops starting origins', async () => {
  await stopsAfterClose(`/v1/coverage/line/accessibility?origins=regional&opportunities[]=places:schools&${at0800}`, REGIONAL_ORIGINS);
});

test('past its deadline, a request of many origins starts no further origin and says so; the deadline counted on a clock of origins started', async () => {
  const coverage = served.coverages.get('line')!;
  const generation = coverage.generation!;
  const matrix = generation.streets!.pointSets.findIndex((set) => set.name === 'matrix');
  const points = generation.streets!.data.pointSets![matrix]!;
  const params = parseParams(matrixCommandParams(DEFAULT_LIMITS), (spec) => (spec.name === 'datetime' ? ['20240102T080000'] : []));
  const job = originJob({ coverage, generation, params, t0: Date.UTC(2024, 0, 2, 8) / 1000, timeZone: 'UTC', maxDurationSec: 3600, destinations: matrix, originLon: points.lon, originLat: points.lat });
  // one second passes on this clock per origin given to the runner: a 5-second deadline lets 5 start
  const before = started;
  const now = () => (started - before) * 1000;
  let rows = 0;
  await assert.rejects(
    originTimes(counting, job, 0, MATRIX_ORIGINS, 2, () => void rows++, { deadline: { seconds: 5, startedMs: 0, now } }),
    (e: unknown) => e instanceof QueryError && e.code === 'requestDeadline' && /deadline of 5 s with [34] of its 200 origins computed/.test(e.message),
  );
  await sleep(50);
  assert.equal(started - before, 5, 'origins started');
  assert.ok(rows >= 3 && rows <= 4, `${rows} rows handed on`);
});

test('a deadline of 0: the request answers 503 with Retry-After before any origin starts', async () => {
  const strict = await lineCity({ matrix: pointsCsv(MATRIX_ORIGINS) }, { heatMaps: counting, limits: { ...DEFAULT_LIMITS, requestDeadlineSec: 0 } });
  const before = started;
  const r = await strict.app.inject(`/v1/coverage/line/travel_time_matrix?origins=matrix&destinations=places&${at0800}`);
  assert.equal(r.statusCode, 503);
  assert.ok(r.headers['retry-after']);
  assert.equal(JSON.parse(r.body).error.id, 'service_unavailable');
  assert.match(JSON.parse(r.body).error.message, /ran past its deadline of 0 s with 0 of its 200 origins computed/);
  assert.equal(started, before, 'no origin started');
  await strict.close();
});
