/**
 * Locality on a country-sized coverage (issue 43): a map or a request about one city should cost
 * about what it costs on that city alone, however large the country around it.
 *
 *   npm run bench:country-locality -- DIR [CITY_DIR]
 *
 * DIR is a generated country (bench/country, `npm run country:generate`) and CITY_DIR the city
 * alone, by default DIR's sibling `scale-1`: the scale-1 country, whose one tile is every
 * country's tile 0 (rnv-mannheim's streets and timetable in the grid's south-west cell, the same
 * bytes). Both are read from their snapshots (`navette build --config X/navette.json --out
 * X/snapshots`), into this one process; a missing or stale snapshot stops the bench (it never builds
 * one: a country's build takes the machine).
 *
 * - Heat maps from tile 0's stops (LOCALITY_ORIGINS, 80 by default, drawn seeded), walking, 60
 *   minutes, resolution 500, leaving on the generator's common Tuesday between 07:30 and 08:29:
 *   computed in this process (the engine, as bench/heat-maps.ts) on the city and on the country in
 *   interleaved pairs, each pair's order alternating, so that the machine's drift and the caches
 *   weigh on both; p50 and p90 of each, their ratio (target: the country's p50 at most 1.5 × the
 *   city's), and the access and RAPTOR timed apart. Then the same pairs over loopback HTTP with gzip
 *   (a server with both coverages and its worker pool). Each thread keeps its engines up to
 *   heatMaps.engineCacheBytes (256 MB by default) but the one it used last: when the two engines
 *   pass that, a few pairs are timed with the default bound (each country map then makes its
 *   engine again), and the run is given room for both.
 * - The answers compared, both ways (bench/locality/map-comparison.ts): each pair on the city's grid
 *   (the country's map computed again on it when its own grid differs, as it does when an intercity
 *   train takes it further), cell by cell. The cells the city alone gets faster, or reaches alone,
 *   are explained by how each coverage links them and its stops to its streets
 *   (bench/locality/link-evidence.ts); tile 0's street lengths on both graphs, against the great
 *   circle's length of the same geometry (bench/locality/street-lengths.ts), show what each
 *   projection does to them, in both directions.
 * - Trips and places on the country over loopback HTTP, the load sent by a child process
 *   (bench/locality/latency-client.ts) from the other core: a mix drawn over every tile
 *   (bench/locality/request-mix.ts), one request at a time, then four at a time, then four at a
 *   time without its one country-wide kind; p50 and p99 per kind (target: p99 at most 20 ms); and
 *   what the load builds for them (the places index, the trips by first departure), timed.
 *
 * LOCALITY_ORIGINS sets the number of origins; LOCALITY_THREADS the server's worker threads (one
 * per core by default). LOCALITY_PARTS=requests runs the trips and places part alone (no heat map
 * is computed, in process or over HTTP; the server keeps the default engine cache bound);
 * LOCALITY_PARTS=all, the default, runs every part. Memory: both coverages, and a heat-map engine's scratch per thread and
 * coverage, which is sized by the whole street graph (printed: about 0.5 GB at scale 64, 4 GB at
 * Germany size by the same arrays); the in-process engines are collected before the server's
 * threads make theirs (node --expose-gc, as the npm script runs it).
 *
 * Figures only: a noisy machine moves them, so nothing here asserts a time.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/api/app.js';
import { readConfigFile } from '../src/cli/config.js';
import { HeatMapPool } from '../src/maps/heat-map-pool.js';
import type { CoverageConfig } from '../src/service/coverage-config.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { snapshotPath, snapshotProduction } from '../src/service/coverage-snapshot.js';
import type { Generation } from '../src/service/generation.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { loadGeneration } from '../src/service/load-coverage.js';
import { DepartureIndex } from '../src/ptref/departure-index.js';
import { PlacesIndex } from '../src/ptref/places-index.js';
import { inOnePiece } from '../src/util/stepwise.js';
import { cellSizeM, sameGrid } from '../src/routing/grid.js';
import { HeatMapEngine, type HeatMapQuery } from '../src/routing/heat-map.js';
import { reachable, typedArrayBytes } from '../src/util/typed-array-bytes.js';
import { zonedToEpoch } from '../src/util/time-zones.js';
import { walkingQueryFrom } from '../test/helpers/heat-map-query.js';
import { mulberry32 } from '../test/helpers/random.js';
import type { Load, LoadTimes } from './locality/latency-client.js';
import { linkAsInCity, linkingOf, LinkEvidence, linkTable, stopsLinkedElsewhere, type MapSide } from './locality/link-evidence.js';
import { MapComparison } from './locality/map-comparison.js';
import { percentile } from './locality/percentile.js';
import { describeLengths, northernStreetLengths, tile0StreetLengths } from './locality/street-lengths.js';
import { COUNTRY_WIDE, mixKinds, requestMix } from './locality/request-mix.js';

const [dirArg, cityArg] = process.argv.slice(2);
if (!dirArg) throw new Error('usage: npm run bench:country-locality -- DIR [CITY_DIR]   (CITY_DIR: DIR/../scale-1 by default)');
const dir = path.resolve(dirArg);
const cityDir = path.resolve(cityArg ?? path.join(path.dirname(dir), 'scale-1'));
const ORIGINS = Number(process.env['LOCALITY_ORIGINS'] ?? 80);
const PARTS = process.env['LOCALITY_PARTS'] ?? 'all';
if (PARTS !== 'all' && PARTS !== 'requests') throw new Error(`LOCALITY_PARTS=${PARTS}: all or requests`);
/** whether the heat maps are measured (LOCALITY_PARTS=all) or only the trips and places (requests) */
const WITH_MAPS = PARTS === 'all';
const MAX_DURATION_SEC = 3600;
const RESOLUTION = 500;
/** pairs computed before the timed ones, so that the JIT has settled on both */
const WARM_UP = 10;
/** the first origins' grids on which every linked cell is checked against its nearest street */
const LINKING_ORIGINS = 5;
const SEQUENTIAL_REQUESTS = 1400;
const CONCURRENT_REQUESTS = 2800;
const CONCURRENCY = 4;
/** pairs over HTTP with the default engine cache bound, when the two engines pass it (each country map then makes its engine: seconds) */
const THRASHING_PAIRS = 4;

const ms = (x: number) => `${x.toFixed(1)} ms`;
const count = (n: number) => n.toLocaleString('en-US');
const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(2)} %`;
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const loadAverages = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** A folder's coverage read from its snapshot, never compiled: a refused snapshot stops the bench. */
async function loadFolder(folder: string): Promise<{ config: CoverageConfig; generation: Generation; seconds: number; referenceDate: string }> {
  const config = readConfigFile(path.join(folder, 'navette.json')).coverages[0]!;
  const snapshots = path.join(folder, 'snapshots');
  // the header alone says whether the snapshot is current; loadGeneration would build a stale one from the sources
  if (!(await snapshotProduction(snapshotPath(snapshots, config.id), config))) {
    throw new Error(`${folder}: no current snapshot; build it with: node dist/src/cli/main.js build --config ${path.join(folder, 'navette.json')} --out ${snapshots}`);
  }
  const summary = await loadGeneration(config, { snapshotDir: snapshots });
  if (summary.from !== 'snapshot') throw new Error(`${folder}: the snapshot was not used: ${summary.snapshotRefused}`);
  const { referenceDate } = JSON.parse(readFileSync(path.join(folder, 'country.json'), 'utf8')) as { referenceDate: string };
  return { config, generation: summary.generation, seconds: summary.seconds, referenceDate };
}

const sha1 = (file: string) => createHash('sha1').update(readFileSync(file)).digest('hex');

console.log(`country ${dir}, city ${cityDir}; load averages at the start ${loadAverages()} (2 cores, shared)`);
const city = await loadFolder(cityDir);
const country = await loadFolder(dir);
console.log(`loaded from snapshots: city in ${city.seconds.toFixed(2)} s, country in ${country.seconds.toFixed(2)} s; resident ${gb(process.memoryUsage().rss)}`);

// the city must be the country's tile 0 exactly: the same feed, the same stops at the same places
const cityFeed = path.resolve(cityDir, city.config.gtfs[0]!);
const tile0Feed = country.config.gtfs.map((g) => path.resolve(dir, g)).find((g) => path.basename(g) === path.basename(cityFeed));
if (city.config.gtfs.length !== 1 || !tile0Feed || sha1(cityFeed) !== sha1(tile0Feed)) throw new Error(`${cityFeed} is not the country's tile 0 feed`);
if (city.referenceDate !== country.referenceDate) throw new Error(`reference dates differ: ${city.referenceDate}, ${country.referenceDate}`);
const cityTt = city.generation.tt;
const countryTt = country.generation.tt;
const countryStop = new Map(countryTt.stopPoints.ids.map((id, s) => [id, s]));
const stopInCountry = cityTt.stopPoints.ids.map((id, s) => {
  const k = countryStop.get(id);
  if (k === undefined || countryTt.stopPoints.lon[k] !== cityTt.stopPoints.lon[s] || countryTt.stopPoints.lat[k] !== cityTt.stopPoints.lat[s]) throw new Error(`stop ${id} is not at the same place in the country`);
  return k;
});
const cityGraph = city.generation.streets!.data.graph;
const countryGraph = country.generation.streets!.data.graph;
const steps = (g: typeof cityGraph) => g.linkLattices.map((l) => l.stepM.toFixed(0)).join('/');
console.log(
  `city: ${count(cityTt.stopPoints.ids.length)} stops, ${count(cityTt.stopTimes.arrivalSec.length)} stop times, ${count(cityGraph.vertexCount)} street vertices, link lattice ${steps(cityGraph)} m (walk/bike/car); ` +
    `country: ${count(countryTt.stopPoints.ids.length)} stops, ${count(countryTt.stopTimes.arrivalSec.length)} stop times, ${count(countryGraph.vertexCount)} street vertices, link lattice ${steps(countryGraph)} m`,
);

// the origins: tile 0's stops drawn without repeats, each leaving at its own minute of 07:30–08:29
const [year, month, day] = [[0, 4], [4, 6], [6, 8]].map(([from, to]) => Number(country.referenceDate.slice(from, to)));
const random = mulberry32(43);
const candidates = [...cityTt.stopPoints.ids.keys()];
const origins = Array.from({ length: Math.min(ORIGINS, candidates.length) }, (_, k) => {
  const stop = candidates.splice(Math.floor(random() * candidates.length), 1)[0]!;
  const minute = 30 + ((k * 37) % 60);
  return { stop, hour: 7 + Math.floor(minute / 60), minute: minute % 60 };
});
const t0Of = (o: (typeof origins)[number]) => zonedToEpoch(countryTt.timezone, year!, month!, day!, o.hour, o.minute, 0);
const cityQuery = (o: (typeof origins)[number]) => walkingQueryFrom(cityTt.stopPoints.lon, cityTt.stopPoints.lat, o.stop, t0Of(o), { maxDurationSec: MAX_DURATION_SEC, resolution: RESOLUTION });
const countryQuery = (o: (typeof origins)[number]) =>
  walkingQueryFrom(countryTt.stopPoints.lon, countryTt.stopPoints.lat, stopInCountry[o.stop]!, t0Of(o), { maxDurationSec: MAX_DURATION_SEC, resolution: RESOLUTION });

// ---- heat maps in this process; its engines are dropped when it returns, and their scratch
// collected (node --expose-gc: the npm script) before the pool's threads make theirs
const engineBytes = WITH_MAPS ? await mapsInProcess() : { city: 0, country: 0 };
(globalThis as { gc?: () => void }).gc?.();

/** The in-process pairs: timed, compared, the differences explained; then the country's maps again with the city's stop links. */
async function mapsInProcess(): Promise<{ city: number; country: number }> {
  // an engine's scratch (each thread of a server keeps one per coverage, up to heatMaps.engineCacheBytes), as the
  // threads' engine cache measures it: the typed arrays it holds beside the coverage's data
  const cityEngine = new HeatMapEngine(city.generation.streets!.data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
  const countryEngine = new HeatMapEngine(country.generation.streets!.data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
  cityEngine.compute(cityQuery(origins[0]!));
  countryEngine.compute(countryQuery(origins[0]!));
  const scratch = { city: typedArrayBytes(cityEngine, reachable(city.generation.streets!.data)), country: typedArrayBytes(countryEngine, reachable(country.generation.streets!.data)) };
  console.log(`a heat-map engine's scratch (one per thread and coverage): city ${mb(scratch.city)}, country ${mb(scratch.country)}`);
  for (const o of origins.slice(0, WARM_UP)) {
    cityEngine.compute(cityQuery(o));
    countryEngine.compute(countryQuery(o));
  }
  const citySide: MapSide = { graph: cityGraph, rasterizer: cityEngine.rasterizer, search: cityEngine.street };
  const countrySide: MapSide = { graph: countryGraph, rasterizer: countryEngine.rasterizer, search: countryEngine.street };
  const walkSpeed = cityQuery(origins[0]!).speeds.walking;
  const times = { city: [] as number[], country: [] as number[] };
  const comparison = new MapComparison(MAX_DURATION_SEC);
  const evidence = new LinkEvidence(RESOLUTION * RESOLUTION);
  const linking = { city: { linked: 0, farther: 0, p99M: [] as number[], maxM: 0 }, country: { linked: 0, farther: 0, p99M: [] as number[], maxM: 0 } };
  const linkScratch = linkTable(RESOLUTION * RESOLUTION);
  const widerGrids: number[] = [];
  const timed = (engine: HeatMapEngine, q: HeatMapQuery, into: number[]) => {
    const started = performance.now();
    const result = engine.compute(q);
    into.push(performance.now() - started);
    return result;
  };
  for (const [k, o] of origins.entries()) {
    let cityMap;
    let countryMap;
    if (k % 2 === 0) {
      cityMap = timed(cityEngine, cityQuery(o), times.city);
      countryMap = timed(countryEngine, countryQuery(o), times.country);
    } else {
      countryMap = timed(countryEngine, countryQuery(o), times.country);
      cityMap = timed(cityEngine, cityQuery(o), times.city);
    }
    // (the maps' cells are views on their engines' scratch: each engine computes nothing more until they are read)
    let countryCells = countryMap.seconds;
    if (!sameGrid(cityMap.grid, countryMap.grid)) {
      widerGrids.push(cellSizeM(countryMap.grid).width / cellSizeM(cityMap.grid).width);
      countryCells = countryEngine.compute(countryQuery(o), cityMap.grid).seconds;
    }
    // each engine's street search is still its last map's (a walking map's one leg): the cells' links are read off it
    evidence.explain(cityMap.grid, comparison.compare(countryCells, cityMap.seconds), citySide, countrySide, cityMap.seconds, countryCells, walkSpeed);
    if (k < LINKING_ORIGINS) {
      for (const [name, side] of [['city', citySide], ['country', countrySide]] as const) {
        const l = linkingOf(side, cityMap.grid, linkScratch);
        linking[name].linked += l.linked;
        linking[name].farther += l.farther;
        linking[name].p99M.push(l.p99M);
        linking[name].maxM = Math.max(linking[name].maxM, l.maxM);
      }
    }
  }

  // the map's first steps on their own, in pairs too, three times each (they take a millisecond or two): the access
  // (the street from the centre to the stops) and RAPTOR
  const parts = { city: { access: [] as number[], pass: [] as number[] }, country: { access: [] as number[], pass: [] as number[] } };
  for (const [k, o] of [...origins, ...origins, ...origins].entries()) {
    const sides = [['city', cityEngine, cityQuery(o)], ['country', countryEngine, countryQuery(o)]] as const;
    for (const [name, engine, q] of k % 2 === 0 ? sides : [sides[1], sides[0]]) {
      let started = performance.now();
      engine.transit.accessFrom(q);
      parts[name].access.push(performance.now() - started);
      started = performance.now();
      engine.transit.pass(q);
      parts[name].pass.push(performance.now() - started);
    }
  }

  const p50 = { city: percentile(times.city, 50), country: percentile(times.country, 50) };
  const p90 = { city: percentile(times.city, 90), country: percentile(times.country, 90) };
  const pairRatios = times.city.map((t, k) => times.country[k]! / t);
  console.log(`\nheat maps in process (the engine), ${origins.length} origins of tile 0, walking, ${MAX_DURATION_SEC / 60} min, resolution ${RESOLUTION}, ${country.referenceDate} 07:30–08:29, interleaved pairs:`);
  console.log(`  city alone  p50 ${ms(p50.city)}  p90 ${ms(p90.city)}`);
  console.log(`  country     p50 ${ms(p50.country)}  p90 ${ms(p90.country)}`);
  console.log(`  country / city: p50 ${(p50.country / p50.city).toFixed(2)} (target ≤ 1.5), p90 ${(p90.country / p90.city).toFixed(2)}, median of the pairs' ratios ${percentile(pairRatios, 50).toFixed(2)}`);
  const part = (name: 'city' | 'country') => {
    const access = percentile(parts[name].access, 50);
    const pass = percentile(parts[name].pass, 50);
    return `access ${ms(access)}, access + RAPTOR ${ms(pass)}, the rest (the street from the stops, the cells) ${ms(p50[name] - pass)}`;
  };
  console.log(`  by step (p50, measured apart): city ${part('city')}; country ${part('country')}`);
  console.log(`  grids: ${widerGrids.length} of ${origins.length} country maps reach past the city's box (an intercity train)${widerGrids.length ? `, their cells ${percentile(widerGrids, 50).toFixed(1)}× as wide (p50): compared on the city's grid, computed again on it` : ''}`);

  const signs = comparison.signs();
  const { min, max } = comparison.extremes();
  console.log(`\nanswers compared on the city's grids, ${comparison.origins} origins, country − city per cell:`);
  console.log(
    `  cells reached on either ${count(comparison.cells)}: both ${count(comparison.both)}, country only ${count(comparison.countryOnly)} (${share(comparison.countryOnly, comparison.cells)}), ` +
      `city only ${count(comparison.cityOnly)} (${share(comparison.cityOnly, comparison.cells)}, on ${comparison.originsCityOnly} origins)`,
  );
  console.log(`  where both reach: country faster ${count(signs.faster)} (${share(signs.faster, comparison.both)}), equal ${count(signs.equal)} (${share(signs.equal, comparison.both)}), city faster ${count(signs.slower)} (${share(signs.slower, comparison.both)}, on ${comparison.originsCityFaster} origins)`);
  console.log(`  differences: min ${min} s, p1 ${comparison.difference(1)} s, p10 ${comparison.difference(10)} s, p50 ${comparison.difference(50)} s, p90 ${comparison.difference(90)} s, p99 ${comparison.difference(99)} s, max ${max} s`);
  console.log(`  relative, cells of ≥ 600 s on the city: p10 ${comparison.relativeDifference(10)} ‰, p50 ${comparison.relativeDifference(50)} ‰, p90 ${comparison.relativeDifference(90)} ‰`);
  console.log(`  city faster by: ${comparison.cityFasterBy().map((b) => `${b.label} ${count(b.cells)}`).join(', ')}`);
  console.log(`  the city-faster and city-only cells, by how the country links them: ${evidence.summary()}`);
  for (const [category, example] of Object.entries(evidence.examples)) console.log(`    ${category}${example.explained ? '' : ', not explained'}: ${example.text}`);
  for (const name of ['city', 'country'] as const) {
    const l = linking[name];
    console.log(`  linking on the first ${LINKING_ORIGINS} grids, ${name}: ${share(l.farther, l.linked)} of ${count(l.linked)} linked cells more than 0.5 m farther than their nearest street (p99 per grid up to ${Math.max(...l.p99M).toFixed(1)} m, max ${l.maxM.toFixed(1)} m)`);
  }

  // tile 0's stops the country links to another street than the city does; the country's maps again with them
  // linked as the city links them (in place, on the loaded data, put back after: a second engine would double the
  // scratch, gigabytes at Germany size)
  const cityLinks = { graph: cityGraph, snaps: city.generation.streets!.data.snaps };
  const countryLinks = { graph: countryGraph, snaps: country.generation.streets!.data.snaps };
  const moved = stopsLinkedElsewhere(cityLinks, countryLinks, stopInCountry);
  console.log(
    `  tile 0's stops linked on foot to another street in the country than in the city: ${moved.length} of ${count(cityTt.stopPoints.ids.length)}` +
      (moved.length ? ` (${moved.slice(0, 5).map((m) => `${cityTt.stopPoints.ids[m.stop]} ${m.cityOffsetM.toFixed(1)} m off in the city, ${m.countryOffsetM.toFixed(1)} m in the country`).join('; ')})` : ''),
  );
  if (moved.length > 0) {
    const again = new MapComparison(MAX_DURATION_SEC);
    const againEvidence = new LinkEvidence(RESOLUTION * RESOLUTION);
    const putBack = linkAsInCity(cityLinks, countryLinks, moved, stopInCountry, countryTt.stopPoints.lon, countryTt.stopPoints.lat);
    try {
      for (const o of origins) {
        const cityMap = cityEngine.compute(cityQuery(o));
        const countryCells = countryEngine.compute(countryQuery(o), cityMap.grid).seconds;
        againEvidence.explain(cityMap.grid, again.compare(countryCells, cityMap.seconds), citySide, countrySide, cityMap.seconds, countryCells, walkSpeed);
      }
    } finally {
      putBack();
    }
    console.log(
      `  the same maps with those ${moved.length} stops linked as in the city: city faster ${count(again.signs().slower)} (${share(again.signs().slower, again.both)}), city only ${count(again.cityOnly)}; ` +
        `by how the country links them: ${againEvidence.summary()}`,
    );
    for (const [category, example] of Object.entries(againEvidence.examples)) if (!example.explained) console.log(`    ${category}, not explained: ${example.text}`);
  }
  console.log(`  tile 0's streets, summed: ${describeLengths("on the city's graph", tile0StreetLengths(cityGraph))}; ${describeLengths("on the country's", tile0StreetLengths(countryGraph))} (projections centred at ${cityGraph.projection.lat0.toFixed(2)}° and ${countryGraph.projection.lat0.toFixed(2)}° N, ${countryGraph.projection.conformal ? 'the country\'s conformal' : 'both equirectangular'})`);
  console.log(`  the country's northernmost streets (half a degree of latitude): ${describeLengths('on its graph', northernStreetLengths(countryGraph, 0.5))}`);
  return scratch;
}

/** The length of the edges between tile 0's nodes (ids under a million: bench/country gives tile t's t × 1,000,000 + 1 onwards), km. */
// ---- over HTTP: one server with both coverages and its worker pool
const registry = new CoverageRegistry();
const cityCoverage = new Coverage({ ...city.config, id: 'city' });
const countryCoverage = new Coverage(country.config);
registry.add(cityCoverage);
registry.add(countryCoverage);
cityCoverage.install(city.generation);
countryCoverage.install(country.generation);
// each thread makes an engine per coverage: LOCALITY_THREADS=1 halves the country's (gigabytes at Germany size)
const threads = process.env['LOCALITY_THREADS'] ? Number(process.env['LOCALITY_THREADS']) : undefined;
type Origin = (typeof origins)[number];

/** A server of both coverages whose threads keep at most `engineCacheBytes` of engines each (heatMaps.engineCacheBytes). */
async function serveBoth(engineCacheBytes: number): Promise<{ base: string; threads: number; close: () => Promise<void> }> {
  const heatMaps = new HeatMapPool({ maxDurationSec: DEFAULT_LIMITS.maxDurationSec, maxResolution: DEFAULT_LIMITS.maxResolution, engineCacheBytes, threads });
  const app = await buildApp({ registry, heatMaps });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    await app.close();
    await heatMaps.close();
  };
  return { base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, threads: heatMaps.threads, close };
}

/** The maps of `timed` in interleaved pairs (the order alternating), after those of `warmUp`: each one's milliseconds and bytes. */
async function mapPairs(base: string, warmUp: Origin[], timed: Origin[]): Promise<Record<'city' | 'country', { ms: number[]; bytes: number }>> {
  const pad = (n: number) => String(n).padStart(2, '0');
  const mapUrl = (coverage: string, o: Origin) =>
    `${base}/v1/coverage/${coverage}/heat_maps?from=${encodeURIComponent(cityTt.stopPoints.ids[o.stop]!)}&datetime=${country.referenceDate}T${pad(o.hour)}${pad(o.minute)}00&max_duration=${MAX_DURATION_SEC}&resolution=${RESOLUTION}`;
  const times = { city: { ms: [] as number[], bytes: 0 }, country: { ms: [] as number[], bytes: 0 } };
  const fetchMap = async (coverage: 'city' | 'country', o: Origin, timing: boolean) => {
    const started = performance.now();
    const res = await fetch(mapUrl(coverage, o), { headers: { 'accept-encoding': 'gzip' } });
    await res.arrayBuffer(); // the whole body, inflated, is part of the time
    if (res.status !== 200 || res.headers.get('content-encoding') !== 'gzip') throw new Error(`${mapUrl(coverage, o)}: HTTP ${res.status}, ${res.headers.get('content-encoding')}`);
    if (!timing) return;
    times[coverage].ms.push(performance.now() - started);
    times[coverage].bytes += Number(res.headers.get('content-length'));
  };
  for (const o of warmUp) {
    await fetchMap('city', o, false);
    await fetchMap('country', o, false);
  }
  for (const [k, o] of timed.entries()) {
    for (const coverage of k % 2 === 0 ? (['city', 'country'] as const) : (['country', 'city'] as const)) await fetchMap(coverage, o, true);
  }
  return times;
}

// A thread keeps the engine it used last whatever its size, and drops the others past its bound: when the
// country's engine alone passes the default bound, each city map drops it and the next country map makes it again.
// A few pairs show what that costs; the run after gives the threads room for both engines.
const bothEngines = engineBytes.city + engineBytes.country;
if (WITH_MAPS && bothEngines > DEFAULT_LIMITS.engineCacheBytes) {
  const server = await serveBoth(DEFAULT_LIMITS.engineCacheBytes);
  try {
    const few = await mapPairs(server.base, origins.slice(0, 1), origins.slice(1, 1 + THRASHING_PAIRS));
    console.log(
      `\nheat maps over HTTP with the default heatMaps.engineCacheBytes (${mb(DEFAULT_LIMITS.engineCacheBytes)} a thread, under the two engines' ${mb(bothEngines)}), ${few.country.ms.length} interleaved pairs: ` +
        `city p50 ${ms(percentile(few.city.ms, 50))}, country p50 ${ms(percentile(few.country.ms, 50))} (its engine dropped at each city map and made again)`,
    );
  } finally {
    await server.close();
  }
  (globalThis as { gc?: () => void }).gc?.();
}
const engineCacheBytes = Math.max(DEFAULT_LIMITS.engineCacheBytes, Math.ceil((1.25 * bothEngines) / 2 ** 20) * 2 ** 20);
const server = await serveBoth(engineCacheBytes);
const base = server.base;
try {
  if (WITH_MAPS) {
    const httpTimes = await mapPairs(base, origins.slice(0, WARM_UP), origins);
    const h50 = { city: percentile(httpTimes.city.ms, 50), country: percentile(httpTimes.country.ms, 50) };
    console.log(`\nheat maps over loopback HTTP with gzip (worker pool of ${server.threads}, heatMaps.engineCacheBytes ${mb(engineCacheBytes)}), the same ${origins.length} origins in interleaved pairs:`);
    for (const name of ['city', 'country'] as const) {
      console.log(`  ${name === 'city' ? 'city alone' : 'country   '}  p50 ${ms(h50[name])}  p90 ${ms(percentile(httpTimes[name].ms, 90))}  (${Math.round(httpTimes[name].bytes / origins.length / 1000)} kB a map)`);
    }
    console.log(`  country / city: p50 ${(h50.country / h50.city).toFixed(2)}`);
  }

  // ---- trips and places on the country, the load sent from a child process
  const date = country.referenceDate;
  const warmUp = requestMix(countryTt, 'country', date, 140, 1);
  const firstPlaces = warmUp.find((r) => r.kind === 'places')!;
  const placesStarted = performance.now();
  const placesStatus = (await fetch(base + firstPlaces.path)).status;
  const firstPlacesMs = performance.now() - placesStarted;
  await runLoad({ base, requests: warmUp, concurrency: 1 });
  // what the load built for them (in slices), built again here in one piece to time it
  let started = performance.now();
  inOnePiece(PlacesIndex.steps(country.generation.ref));
  const placesIndexMs = performance.now() - started;
  started = performance.now();
  inOnePiece(DepartureIndex.steps(countryTt));
  const departureIndexMs = performance.now() - started;
  console.log(
    `\ntrips and places on the country over loopback HTTP (gzip asked; the first places search of a generation ${ms(firstPlacesMs)}, HTTP ${placesStatus}; ` +
      `built when the data loads: the places index ${ms(placesIndexMs)}, the trips by first departure ${ms(departureIndexMs)}):`,
  );
  const loads = [
    { title: 'one at a time', requests: SEQUENTIAL_REQUESTS, concurrency: 1, countryWide: true },
    { title: `${CONCURRENCY} at a time`, requests: CONCURRENT_REQUESTS, concurrency: CONCURRENCY, countryWide: true },
    { title: `${CONCURRENCY} at a time, without "${COUNTRY_WIDE}"`, requests: CONCURRENT_REQUESTS, concurrency: CONCURRENCY, countryWide: false },
  ];
  for (const [k, { title, requests, concurrency, countryWide }] of loads.entries()) {
    const mix = requestMix(countryTt, 'country', date, requests, 2 + k, countryWide);
    const result = await runLoad({ base, requests: mix, concurrency });
    const all = Object.values(result.ms).flat();
    const local = Object.entries(result.ms).flatMap(([kind, times]) => (kind === COUNTRY_WIDE ? [] : times));
    console.log(
      `  ${title}: ${count(requests)} requests in ${(result.wallMs / 1000).toFixed(1)} s (${Math.round((1000 * requests) / result.wallMs)} req/s): ` +
        `p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))} (target ≤ 20 ms), max ${ms(all.reduce((a, b) => Math.max(a, b), 0))}` +
        (countryWide ? `; the other kinds p99 ${ms(percentile(local, 99))}` : ''),
    );
    for (const kind of mixKinds(mix)) {
      const statuses = Object.entries(result.statuses[kind] ?? {}).map(([status, n]) => `${n} × ${status}`).join(', ');
      console.log(`    ${kind.padEnd(30)} p50 ${ms(percentile(result.ms[kind]!, 50)).padStart(8)}  p99 ${ms(percentile(result.ms[kind]!, 99)).padStart(8)}  (${statuses})`);
    }
  }
} finally {
  await server.close();
}
console.log(`\nload averages at the end ${loadAverages()}; resident ${gb(process.memoryUsage().rss)}`);

/** A load sent by the latency client in a child process, its times read back. */
async function runLoad(load: Load): Promise<LoadTimes> {
  const child = spawn(process.execPath, [path.resolve('dist/bench/locality/latency-client.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(load));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the latency client stopped with code ${code}`);
  return JSON.parse(out) as LoadTimes;
}
