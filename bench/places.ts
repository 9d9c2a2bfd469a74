/**
 * `/places` on rnv-mannheim (2,057 stops): the cost of one search of the index (ptref/places-index.ts),
 * and of building the index once per data generation. `npm run bench:places`.
 */
import path from 'node:path';
import { loadGeneration } from '../src/service/load-coverage.js';
import { PlacesIndex } from '../src/ptref/places-index.js';
import { inOnePiece } from '../src/util/stepwise.js';
import { SHARED_DATA } from '../test/helpers/shared-data.js';

const { generation } = await loadGeneration({ id: 'rnv', gtfs: [path.join(SHARED_DATA, 'rnv-mannheim', 'gtfs.zip')], realtime: [] });
let started = process.hrtime.bigint();
const index = inOnePiece(PlacesIndex.steps(generation.ref));
console.log(`index built in ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms`);
const queries = ['a', 'e', 'str', 'strasse', 'hauptbahnhof', 'kafertal', 'mannheim', 'lammertr', 'pettenkoferstrasse', 'zzz'];
for (const q of queries) index.search(q, true, true, 10); // warm up
const rounds = 500;
started = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) for (const q of queries) index.search(q, true, true, 10);
const perSearchMs = Number(process.hrtime.bigint() - started) / 1e6 / (rounds * queries.length);
console.log(`one search, best 10 of stop areas and stop points: ${(perSearchMs * 1000).toFixed(1)} µs on average over ${queries.length} queries × ${rounds}`);
