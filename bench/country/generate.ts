/**
 * `npm run country:generate -- --scale S --out DIR [--data DIR]`: a country-sized coverage tiled from
 * the real extracts and feeds of ../shared/data (country.ts), written to DIR, which must lie outside
 * the repository. S is a number of rnv-mannheims (its 164,598 street nodes and 424,266 stop times),
 * or `germany` (100 M street nodes, 37 M stop times). Prints what it wrote, the time it took and the
 * process's peak resident memory.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SHARED_DATA } from '../../test/helpers/shared-data.js';
import { targetsOf } from './catalogue.js';
import { generateCountry } from './country.js';
import { POINT_SET, POINTS_FILE } from './points.js';

/** The repository: this file is dist/bench/country/generate.js. */
const REPOSITORY = path.resolve(fileURLToPath(import.meta.url), '../../../..');

const USAGE = 'usage: npm run country:generate -- --scale S|germany --out DIR [--data DIR]';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { scale: { type: 'string' }, out: { type: 'string' }, data: { type: 'string' } } });
  if (!values.scale || !values.out) throw new Error(USAGE);
  const out = path.resolve(values.out);
  const inside = path.relative(REPOSITORY, out);
  if (!inside.startsWith('..') && !path.isAbsolute(inside)) throw new Error(`--out ${out} lies inside the repository (${REPOSITORY}): write the country elsewhere`);
  const targets = targetsOf(values.scale);
  const started = performance.now();
  const { counts, layout, config, seconds: steps, points } = await generateCountry(path.resolve(values.data ?? SHARED_DATA), targets, values.scale, out);
  const seconds = (performance.now() - started) / 1000;
  const n = (v: number) => v.toLocaleString('en-US');
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const ic = counts.intercity;
  console.log(`country --scale ${values.scale}: asked ${n(targets.nodes)} street nodes, ${n(targets.stopTimes)} stop times`);
  console.log(`  tiles      ${n(counts.tiles)} (${layout.grid.cols} × ${layout.grid.rows} grid), ${n(counts.timetableTiles)} with a timetable`);
  console.log(`  streets    ${n(counts.nodes)} nodes, ${n(counts.ways)} ways: ${mb(counts.pbfBytes)}`);
  console.log(`  timetable  ${n(counts.stops)} stops, ${n(counts.trips)} trips, ${n(counts.stopTimes)} stop times in ${n(counts.feeds)} feed${counts.feeds === 1 ? '' : 's'}: ${mb(counts.gtfsBytes)}`);
  if (ic) console.log(`  intercity  ${n(ic.routes)} lines, ${n(ic.stops)} stations, ${n(ic.trips)} trips, ${n(ic.stopTimes)} stop times (counted above)`);
  console.log(`  points     ${n(points)} (the point set ${POINT_SET}: ${POINTS_FILE})`);
  const s = (v: number) => `${v.toFixed(1)} s`;
  console.log(`  time ${s(seconds)} (sources ${s(steps.sources)}, streets ${s(steps.streets)}, timetables ${s(steps.timetables)}), peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
  console.log(`  ${config}`);
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
