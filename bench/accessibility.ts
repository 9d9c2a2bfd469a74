/**
 * Accessibility and travel-time matrices on Porto Alegre (issue 28's targets), on r5r's example data
 * (walk + transit, 2019-05-13 14:00, walking 1.0 m/s, 30 minutes of walking to transit, 2 transfers):
 *
 *   npm run bench:accessibility              (BENCH_REGIONAL=0 leaves out the regional GeoTIFF)
 *
 * - `navette matrix`, 1,227 × 1,227 hexagons, end to end (load from the snapshot, every core, the
 *   CSV written): a 120-minute window with percentiles 5/25/50/75/95 (target ≤ 40 s) and a 1-minute
 *   window (target ≤ 8 s); the peak memory of each;
 * - `GET …/accessibility` for one origin without a window, p50 over 30 origins, against the heat
 *   map's compute time for the same query measured in the same run (target ≤ 1.2×);
 * - the regional GeoTIFF at 100 m cells, 60-minute window: its time, and the shares of routing
 *   (RAPTOR), propagation (the street searches and the points valued) and reduction (percentiles,
 *   decay sums) in a CPU profile of the run.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { getOk, serveCoverages } from '../test/helpers/app.js';
import { buildQuery } from '../src/queries/journey-query.js';
import { parseParams } from '../src/api/params.js';
import { heatMapParams } from '../src/api/heat-maps/heat-maps-params.js';
import { parseQueryString } from '../src/api/query-string.js';
import { HeatMapEngine } from '../src/routing/heat-map.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { zonedToEpoch } from '../src/util/time-zones.js';
import { POA_COVERAGE, poaSnapshot } from './poa-snapshot.js';

const run = promisify(execFile);
const coverage = POA_COVERAGE;
const { dir, config } = await poaSnapshot('navette-bench-access-');
const JOURNEYS = ['--datetime', '20190513T140000', '--walking-speed', '1', '--max-walking-duration-to-pt', '1800', '--max-nb-transfers', '2'];

/** A command's wall time and the closing line it printed (its own time and peak memory). */
async function timedCommand(args: string[], env: Record<string, string> = {}): Promise<{ seconds: number; line: string }> {
  const started = performance.now();
  const { stderr } = await run(process.execPath, [...(env['PROFILE'] ? ['--cpu-prof', `--cpu-prof-dir=${env['PROFILE']}`] : []), 'dist/src/cli/main.js', ...args, '--config', config, '--coverage', 'poa', ...JOURNEYS], { maxBuffer: 1 << 26 });
  return { seconds: (performance.now() - started) / 1000, line: stderr.trim().split('\n').at(-1)! };
}

/** Which phase a profiled function's own time belongs to (idle and the collector's time left out). */
function phaseOf(name: string, url: string): keyof typeof PHASES | 'other' | null {
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return null;
  const file = url.split('/').pop() ?? '';
  for (const [phase, test] of Object.entries(PHASES)) if (test(name, file)) return phase as keyof typeof PHASES;
  return 'other';
}

const PHASES = {
  routing: (_: string, file: string) => file === 'raptor.js',
  propagation: (name: string, file: string) => file === 'street-search.js' || file === 'raster.js' || (file === 'window-heat-map.js' && name !== 'selectPercentiles' && name !== 'groupChanges') || (file === 'heat-map.js' && (name === 'valuePoints' || name === 'timesAt')),
  reduction: (name: string, file: string) => file === 'accessibility.js' || file === 'decay.js' || file === 'regional-accessibility.js' || file === 'window-percentiles.js' || name === 'groupChanges',
};

// 1. the matrix, 1,227 × 1,227
for (const [window, percentiles, target] of [
  ['60', '50', 8],
  ['7200', '5,25,50,75,95', 40],
] as const) {
  const { seconds, line } = await timedCommand(['matrix', '--origins', 'hexgrid', '--max-duration', '7200', '--departure-window', window, '--percentiles', percentiles, '--out', path.join(dir, 'matrix.csv')]);
  console.log(`navette matrix 1227 × 1227, window ${Number(window) / 60} min, percentiles ${percentiles}: ${seconds.toFixed(1)} s end to end (target ≤ ${target} s) | ${line}`);
}

// 2. one origin's accessibility through the API against the heat map's compute for the same query
{
  const served = await serveCoverages(
    [{ ...coverage, pointSets: [{ name: 'hexgrid', file: coverage.pointSets.hexgrid }, { name: 'copy', file: coverage.pointSets.hexgrid }] }],
    { load: { snapshotDir: path.join(dir, 'snapshots') } },
  );
  const g = served.generations.get('poa')!;
  const hexagons = readFileSync(coverage.pointSets.hexgrid, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const origins = hexagons.filter((_, k) => k % 41 === 0).map((h) => [Number(h[1]), Number(h[2])] as const);
  const common = 'datetime=20190513T140000&walking_speed=1&max_walking_duration_to_pt=1800&max_nb_transfers=2&max_duration=1800';
  const engine = new HeatMapEngine(g.streets!.data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
  const t0 = zonedToEpoch(g.tt.timezone, 2019, 5, 13, 14, 0, 0);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const api: number[] = [];
  const map: number[] = [];
  for (const pass of [0, 1]) {
    for (const [lon, lat] of origins) {
      const params = parseParams(heatMapParams(DEFAULT_LIMITS), parseQueryString(`from=${lon};${lat}&${common}&resolution=500`));
      const query = buildQuery({ ...params, resolution: 500 }, g, 'departure', { kind: 'coord', lon, lat }, t0, 1800, 60);
      let started = performance.now();
      engine.compute(query);
      const mapMs = performance.now() - started;
      started = performance.now();
      await getOk(served.app, `/v1/coverage/poa/accessibility?from=${lon};${lat}&${common}&opportunities[]=hexgrid:schools&cutoffs[]=1800`);
      const apiMs = performance.now() - started;
      // the first pass warms both up
      if (pass === 1) {
        map.push(mapMs);
        api.push(apiMs);
      }
    }
  }
  console.log(`GET accessibility, one origin, no window: p50 ${median(api).toFixed(1)} ms; heat map compute (resolution 500) p50 ${median(map).toFixed(1)} ms: ${(median(api) / median(map)).toFixed(2)}× (target ≤ 1.2×)`);
  // regional accessibility of the 1,227 hexagons with opportunities in one set, then in two (the
  // same file under a second name): the transit search is shared, so the second set costs its
  // direct path and egress pass only
  const regional = async (opportunities: string) => {
    const started = performance.now();
    await getOk(served.app, `/v1/coverage/poa/accessibility?origins=hexgrid&${common}&${opportunities}&cutoffs[]=1800`);
    return performance.now() - started;
  };
  const oneSet = 'opportunities[]=hexgrid:schools';
  const twoSets = 'opportunities[]=hexgrid:schools&opportunities[]=copy:jobs';
  await regional(twoSets);
  const [one, two] = [await regional(oneSet), await regional(twoSets)];
  console.log(`GET accessibility?origins=hexgrid (1227 origins, in process): one point set ${(one / 1000).toFixed(2)} s, two point sets ${(two / 1000).toFixed(2)} s: ${(two / one).toFixed(2)}× (one search per origin for both; 2× if each set had its own)`);
  await served.close();
}

// 3. the regional GeoTIFF at 100 m, 60-minute window, profiled
if (process.env['BENCH_REGIONAL'] !== '0') {
  const profiles = path.join(dir, 'profiles');
  const { seconds, line } = await timedCommand(
    ['accessibility', '--grid', '100', '--opportunities', 'hexgrid:schools,hexgrid:jobs', '--cutoffs', '1800,3600', '--departure-window', '3600', '--percentiles', '5,50,95', '--out', path.join(dir, 'regional.tif')],
    { PROFILE: profiles },
  );
  const shares = { routing: 0, propagation: 0, reduction: 0, other: 0 };
  for (const file of readdirSync(profiles)) {
    const profile = JSON.parse(readFileSync(path.join(profiles, file), 'utf8')) as { nodes: { id: number; callFrame: { functionName: string; url: string } }[]; samples: number[]; timeDeltas: number[] };
    const kind = new Map(profile.nodes.map((n) => [n.id, phaseOf(n.callFrame.functionName, n.callFrame.url)]));
    profile.samples.forEach((id, k) => {
      const phase = kind.get(id);
      if (phase) shares[phase] += profile.timeDeltas[k] ?? 0;
    });
  }
  const busy = shares.routing + shares.propagation + shares.reduction + shares.other;
  const pct = (v: number) => `${((100 * v) / busy).toFixed(0)} %`;
  console.log(`regional GeoTIFF, 100 m cells, window 60 min: ${seconds.toFixed(1)} s | ${line}`);
  console.log(`  CPU: routing ${pct(shares.routing)}, propagation ${pct(shares.propagation)}, reduction ${pct(shares.reduction)}, other ${pct(shares.other)}`);
}
