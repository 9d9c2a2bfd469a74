/**
 * Batch analyses from the command line, the work a GET should not carry (docs/analysis.md):
 * `navette matrix`, `navette accessibility` and `navette merge` (their usage: command-usage.ts).
 *
 * Bad arguments are refused before the coverage loads (analysis-preflight.ts), the rest once it has
 * loaded and before any search. The coverage loads (from its snapshot when one is valid), every origin is one computation on the
 * worker pool (every core), rows are written in the origins' order as they come, with a progress
 * bar; the output file appears only once complete (output-file.ts). `--shard K/N` computes slice K
 * of N equal slices of the origins (0 ≤ K < N), slice 0 alone writing the CSV header, so that the
 * parts concatenated in order are the whole run's file byte for byte.
 */
import { accessibilityCommandParams, matrixCommandParams } from '../queries/analysis-params.js';
import { measuresOf, measuresRequest } from '../queries/measures.js';
import { jobPercentiles, originJob, originMeasureValues, originTimes, searchedTimetable, type OriginJobParts, type OriginTimesJob } from '../queries/origin-rows.js';
import { measureCount } from '../analysis/travel-time-reducer.js';
import { measureDifference } from '../analysis/accessibility.js';
import { atSelected, opportunityRefs, opportunityRefsIn, pointSetIndex, selectPoints, setIndexIn } from '../queries/point-set-refs.js';
import { TIFF_NODATA, writeGeoTiff, type TiffBand } from '../formats/geotiff.js';
import { HeatMapPool } from '../maps/heat-map-pool.js';
import { COMMAND_ORIGINS_PER_THREAD, DEFAULT_LIMITS, GRID_CELL_MAX_M, GRID_CELL_MIN_M } from '../service/limits.js';
import { parseParams, type ParamSpec } from '../queries/param-table.js';
import { QueryError } from '../queries/query-errors.js';
import { requestInstant } from '../queries/map-prologue.js';
import { LINK_RADIUS_M, snapPoint, unprojectLat, unprojectLon, vertexBox } from '../model/street-graph.js';
import { Layer } from '../model/street-layers.js';
import { cellGeometry, rowCentres, type Grid } from '../routing/grid.js';
import type { CoverageConfig } from '../service/coverage-config.js';
import type { Generation } from '../service/generation.js';
import { loadGeneration } from '../service/load-coverage.js';
import { ScenarioLibrary } from '../service/scenario-library.js';
import { comparedSide, comparisonOf, type ComparedSide } from '../queries/timetable-choice.js';
import { ConfigError } from './config.js';
import { checkCommandDay, checkDayBeforeLoad, commandCoverage, commandDatetime, configuredSets, type CommandCoverage } from './analysis-preflight.js';
import { flagName, refusalText } from './refusal-text.js';
import { manyOriginsWarnings } from '../api/heat-maps/map-flow.js';
import { abandonOnSignals, checkWritable, OutputBusy, OutputFile } from './output-file.js';
import { appendParts, checkedParts, refuseUnmergeable, runIdentity, writeManifest, type PartManifest } from './shard-parts.js';
import { matrixFormat, openMatrixOutput } from './matrix-output.js';
import { accessibilityFormat, openAccessibilityOutput } from './accessibility-output.js';
import { writingFigures } from './table-output.js';
import { matrixTable } from '../queries/matrix-table.js';
import { skimsOf } from '../queries/skim-parts.js';
import { workProgress } from './progress.js';

/** The options the commands read themselves; every other --name is a parameter of the command's table. */
const OWN_OPTIONS = new Set(['config', 'coverage', 'snapshots', 'threads', 'shard', 'origins', 'destinations', 'grid', 'out']);

export { flagName };

interface CommandArgs {
  own: Map<string, string>;
  /** per parameter of the table (its table name), the values given, a comma list split for an array */
  values: Map<string, string[]>;
}

/**
 * `--name value` and `--name=value`: the commands' own options, and the parameters of `specs` (the
 * query layer's table of the command, which the API's parameters come from too) by their flags; an
 * unknown option is refused.
 */
export function commandArgs(args: string[], specs: readonly ParamSpec[]): CommandArgs {
  const own = new Map<string, string>();
  const values = new Map<string, string[]>();
  const byFlag = new Map(specs.filter((s) => !s.hidden).map((s) => [flagName(s.name), s]));
  const unknown: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    // a switch (a yes/no parameter) alone is true: `--breakdown`, as `--breakdown true`
    const alone = eq < 0 && byFlag.get(`--${name}`)?.kind === 'bool' && (k + 1 === args.length || args[k + 1]!.startsWith('--'));
    const value = alone ? 'true' : eq < 0 ? args[++k] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(`--${name} needs a value`);
    if (OWN_OPTIONS.has(name)) {
      if (own.has(name)) throw new ConfigError(`--${name} is given twice`);
      own.set(name, value);
      continue;
    }
    const spec = byFlag.get(`--${name}`);
    if (!spec) {
      if (!unknown.includes(`--${name}`)) unknown.push(`--${name}`);
      continue;
    }
    const given = values.get(spec.name) ?? [];
    given.push(...(spec.array ? value.split(',').map((item) => item.trim()) : [value]));
    values.set(spec.name, given);
  }
  if (unknown.length > 0) throw new ConfigError(`unknown option ${unknown.join(', ')}`);
  return { own, values };
}

/** The parameters of a table from the command's options: a bad value is refused as the API refuses it, in the command's words. */
function commandParams<const T extends readonly ParamSpec[]>(specs: T, args: CommandArgs) {
  return parseParams(specs, (spec) => args.values.get(spec.name) ?? []);
}

/** `--shard K/N`: slice K of N, K from 0 to N − 1 (a Kubernetes Indexed Job's completion index, given as `$(JOB_COMPLETION_INDEX)`); undefined when not given. */
export function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const k = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || !(n >= 1) || !(k >= 0 && k < n)) throw new ConfigError(`--shard must be K/N with 0 ≤ K < N (slice K of N), not ${text}`);
  return { index: k, count: n };
}

/** `--shard K/N`: the origins [from, to) of slice K of N. */
export function shardSlice(text: string | undefined, count: number): { from: number; to: number; first: boolean; index: number; count?: number } {
  const shard = parseShard(text);
  if (shard === undefined) return { from: 0, to: count, first: true, index: 0 };
  const { index: k, count: n } = shard;
  return { from: Math.floor((k * count) / n), to: Math.floor(((k + 1) * count) / n), first: k === 0, index: k, count: n };
}

interface Loaded {
  config: CoverageConfig;
  generation: Generation;
}

/** The coverage, loaded (its snapshot when valid), with its scenarios. */
async function loadForAnalysis(coverage: CommandCoverage): Promise<Loaded> {
  const { config, snapshotDir } = coverage;
  const id = config.id;
  process.stderr.write(`loading ${id}…\n`);
  // the API's indexes (places, departures) are never read by a command
  const loaded = await loadGeneration(config, { snapshotDir, warm: false });
  process.stderr.write(`${id} loaded from its ${loaded.from} in ${loaded.seconds.toFixed(1)} s\n`);
  const generation = await withScenarios(loaded.generation, config);
  if (!generation.streets) throw new ConfigError(`coverage ${id} has no street network (no OpenStreetMap extract): nothing to analyse`);
  return { config, generation };
}

/** The worker threads of a run (`--threads`), made once its arguments are accepted, before its coverage loads: they start while it does. */
function analysisPool(coverage: CommandCoverage, maxDurationSec: number): HeatMapPool {
  const { threads, server } = coverage;
  // no time budget per origin: the command runs as long as its work takes
  // the queue holds what the commands keep in flight beyond the running ones
  return new HeatMapPool({ threads, maxQueue: threads * COMMAND_ORIGINS_PER_THREAD, budgetMs: 0, maxDurationSec: Math.max(maxDurationSec, server.limits.maxDurationSec), maxResolution: server.limits.maxResolution });
}

/**
 * What is refused before the coverage loads: --config and --coverage, --threads, --datetime, --out
 * (its folder), the point sets (`sets`: the set a flag names) and the opportunities, --shard.
 */
async function preflight(own: Map<string, string>, request: { datetime: string | undefined; out: string; sets: [string, string | undefined][]; opportunities?: string[] }): Promise<CommandCoverage> {
  const datetime = commandDatetime(request.datetime);
  parseShard(own.get('shard'));
  const coverage = commandCoverage(own);
  checkWritable(request.out);
  const sets = await configuredSets(coverage.config);
  if (sets) {
    for (const [param, name] of request.sets) if (name !== undefined) setIndexIn(sets, param, name);
    if (request.opportunities) opportunityRefsIn(sets, request.opportunities);
  }
  await checkDayBeforeLoad(coverage, datetime);
  return coverage;
}

/** The warnings the API gives the same request (no trip running in its window…), said before the run starts. */
function sayWarnings(command: string, generation: Generation, job: OriginTimesJob): void {
  for (const w of manyOriginsWarnings(generation, job, generation.tt.timezone)) process.stderr.write(`navette ${command}: warning: ${w.message} (${w.id})\n`);
}

/** The generation with its coverage's scenarios read and applied (their refusals said on stderr), when it has some. */
async function withScenarios(generation: Generation, config: CoverageConfig): Promise<Generation> {
  if (!config.scenarios?.length) return generation;
  const say = (_: object, line: string) => void process.stderr.write(`${line}\n`);
  const library = new ScenarioLibrary({ id: config.id, generation }, config.scenarios, { info: say, warn: say });
  await library.check();
  return { ...generation, scenarios: library };
}

/** The instant `--datetime` names, in the production period; the coverage's job from it. */
function commandJob(
  loaded: Loaded,
  params: OriginJobParts['params'] & { datetime?: string | undefined },
  maxDurationSec: number,
  destinations: number,
  origins: { lon: ArrayLike<number>; lat: ArrayLike<number> },
  compared?: ComparedSide,
): OriginTimesJob {
  const { generation, config } = loaded;
  const timeZone = generation.tt.timezone;
  const datetime = commandDatetime(params.datetime);
  // known before the load from a current snapshot; else here, before any search
  checkCommandDay(generation, datetime, timeZone);
  const t0 = requestInstant(params, 0, timeZone);
  const comparison = compared ? comparisonOf(params, generation, compared) : null;
  return originJob({ coverage: { id: config.id, config }, generation, params, t0, timeZone, maxDurationSec, destinations, originLon: origins.lon, originLat: origins.lat, comparison });
}

/** A command's body, its refusals as messages: 2 for a bad argument, 1 for a failure. */
async function runCommand(name: string, body: () => Promise<void>): Promise<number> {
  // stopped by a signal, the command removes what it was writing and says so
  const stopListening = abandonOnSignals((line) => process.stderr.write(`navette ${name}: ${line}\n`));
  try {
    await body();
    return 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof OutputBusy) {
      process.stderr.write(`navette ${name}: ${e.message}\n`);
      return 2;
    }
    if (e instanceof QueryError) {
      process.stderr.write(`navette ${name}: ${refusalText(e)}\n`);
      return 2;
    }
    process.stderr.write(`navette ${name}: ${(e as Error).message}\n`);
    return 1;
  } finally {
    stopListening();
  }
}

/** What decides a run's rows, for its identity (shard-parts.ts): the coverage, the sets, the parameters as given. */
function decisiveArgs(own: Map<string, string>, values: Map<string, string[]>): Record<string, unknown> {
  const decisive: Record<string, unknown> = {};
  for (const key of ['coverage', 'origins', 'destinations', 'grid']) if (own.has(key)) decisive[key] = own.get(key);
  for (const [name, given] of values) decisive[`param:${name}`] = given;
  return decisive;
}

/** A part's manifest, when the run is one slice of several (`--shard`). */
async function closePart(file: OutputFile, kind: PartManifest['kind'], slice: ReturnType<typeof shardSlice>, run: string): Promise<void> {
  const written = await file.close();
  if (slice.count !== undefined) writeManifest(file.path, kind, run, slice.index, slice.count, written);
}

const orZero = (v: number) => (Number.isNaN(v) ? 0 : v);

/** The seconds since `started` (performance.now()), for the closing line. */
const elapsed = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
/** The process's peak resident memory, its worker threads included. */
const peakMemory = () => `peak memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;

export function matrixCommand(args: string[]): Promise<number> {
  return runCommand('matrix', async () => {
    const specs = matrixCommandParams(DEFAULT_LIMITS);
    const parsed = commandArgs(args, specs);
    const { own } = parsed;
    const format = matrixFormat(own);
    const out = own.get('out')!;
    const originsName = own.get('origins');
    if (!originsName) throw new ConfigError('give --origins SET, a point set of the coverage');
    const probe = commandParams(specs, parsed);
    skimsOf(probe);
    const destinationsName = own.get('destinations');
    const coverage = await preflight(own, { datetime: probe.datetime, out, sets: [['origins', originsName], ['destinations', destinationsName]] });
    const pool = analysisPool(coverage, probe.max_duration);
    try {
      const loaded = await loadForAnalysis(coverage);
      const { generation } = loaded;
      const streets = generation.streets!;
      const origins = pointSetIndex(generation, 'origins', originsName);
      const destinations = destinationsName === undefined ? origins : pointSetIndex(generation, 'destinations', destinationsName);
      // the points --origin-ids and --destination-ids name, in their order (all by default)
      const originPoints = selectPoints(generation, origins, 'origin_ids[]', probe.origin_ids);
      const destinationPoints = selectPoints(generation, destinations, 'destination_ids[]', probe.destination_ids);
      const originSet = streets.data.pointSets![origins]!;
      const job = commandJob(loaded, probe, probe.max_duration, destinations, { lon: atSelected(originSet.lon, originPoints.indices), lat: atSelected(originSet.lat, originPoints.indices) });
      sayWarnings('matrix', generation, job);
      const originIds = originPoints.ids;
      const destinationIds = destinationPoints.ids;
      const percentiles = jobPercentiles(job);
      const slice = shardSlice(own.get('shard'), originIds.length);
      // skims: a row per percentile in CSV and Parquet, a matrix per part and percentile in OMX
      const skims = !probe.breakdown ? 'none' : format === 'omx' ? 'wide' : 'long';
      const table = matrixTable({ originIds, destinationIds, destinationIndices: destinationPoints.indices, percentiles, skims, routes: skims === 'long' && probe.routes ? searchedTimetable(job) : null });
      const output = await openMatrixOutput(out, format, table.columns, { header: slice.first, lookup: originsName });
      const progress = workProgress('matrix', slice.to - slice.from, 'origins');
      const started = performance.now();
      try {
        let done = 0;
        await originTimes(
          pool,
          job,
          slice.from,
          slice.to,
          coverage.threads * COMMAND_ORIGINS_PER_THREAD,
          async (row) => {
            await output.write(table.block(row));
            progress.update(++done);
          },
          undefined,
          probe.breakdown,
        );
        await output.finish();
        progress.done();
        await closePart(output.file, 'matrix', slice, runIdentity('matrix', decisiveArgs(own, parsed.values)));
      } catch (e) {
        progress.done();
        output.file.abandon();
        throw e;
      }
      process.stderr.write(`${out}: ${slice.to - slice.from} origins × ${destinationIds.length} destinations in ${elapsed(started)} (${writingFigures(output)}), ${peakMemory()}\n`);
    } finally {
      await pool.close();
    }
  });
}

export function accessibilityCommand(args: string[]): Promise<number> {
  return runCommand('accessibility', async () => {
    const specs = accessibilityCommandParams(DEFAULT_LIMITS);
    const parsed = commandArgs(args, specs);
    const { own } = parsed;
    const format = accessibilityFormat(own.get('out'));
    const out = own.get('out')!;
    const gridText = own.get('grid');
    const originsName = own.get('origins');
    if ((gridText === undefined) === (originsName === undefined)) throw new ConfigError('give either --origins SET or --grid METRES');
    if (/\.tiff?$/.test(out) && gridText === undefined) throw new ConfigError('--out FILE.tif takes --grid METRES: a GeoTIFF is a grid of origins');
    if (/\.tiff?$/.test(out) && own.has('shard')) throw new ConfigError('--shard writes parts of a CSV, which merge joins; a GeoTIFF is written whole: give --out FILE.csv');
    if (own.has('destinations')) throw new ConfigError('--destinations is the matrix\'s: the accessibility reaches the points of its --opportunities\' set');
    const params = commandParams(specs, parsed);
    if (params.nearest.length > 0) throw new ConfigError('--nearest (dual access) is the API\'s: the command writes the cumulative measures');
    const measures = measuresOf(params, DEFAULT_LIMITS.maxDurationSec);
    if (gridText !== undefined) gridMetres(gridText);
    const coverage = await preflight(own, { datetime: params.datetime, out, sets: [['origins', originsName]], opportunities: params.opportunities });
    const pool = analysisPool(coverage, measures.maxDurationSec);
    try {
      const loaded = await loadForAnalysis(coverage);
      const { generation } = loaded;
      const refs = opportunityRefs(generation, params.opportunities);
      const set = refs[0]!.set;
      const origins = gridText === undefined ? pointSetOrigins(generation, originsName!) : gridOrigins(generation, gridText);
      const compared = comparedSide(params);
      const job = commandJob(loaded, params, measures.maxDurationSec, set, origins, compared);
      sayWarnings('accessibility', generation, job);
      const percentiles = jobPercentiles(job);
      // reduced in the workers, as regional accessibility is (regional-accessibility.ts): per column, per percentile, per cutoff
      const reduce = measuresRequest(measures, refs, percentiles.length);
      const perColumn = measureCount(reduce.layout);
      const slice = shardSlice(own.get('shard'), origins.lon.length);
      const progress = workProgress('accessibility', slice.to - slice.from, 'origins');
      const started = performance.now();
      // per origin of the slice, per percentile, cutoff and column: the measure
      const measuresPerOrigin = percentiles.length * measures.cutoffsSec.length * refs.length;
      const isTiff = format === 'tiff';
      // the GeoTIFF is written whole at the end: it holds every origin's measures until then
      const values = new Float64Array(isTiff ? (slice.to - slice.from) * measuresPerOrigin : 0);
      // with a comparison, each column is the difference: its name says with what
      const suffix = compared === undefined ? '' : ` minus ${compared.param === 'compare_scenario' ? compared.scenario : compared.level}`;
      const layout = { ids: origins.ids, lon: origins.lon, lat: origins.lat, percentiles, cutoffs: measures.cutoffsSec, labels: refs.map((r) => r.label + suffix) };
      const output = isTiff ? null : openAccessibilityOutput(out, format, layout, { header: slice.first, origins: slice.to - slice.from });
      const file = output?.file ?? new OutputFile(out);
      try {
        let done = 0;
        // an origin reaching no point counts 0 here (the API's regional answer says null); with a comparison, its difference
        const valueAt = (reduced: Float64Array, compared: Float64Array | null, i: number) => (compared ? measureDifference(orZero(reduced[i]!), orZero(compared[i]!)) : orZero(reduced[i]!));
        await originMeasureValues(pool, job, reduce, slice.from, slice.to, coverage.threads * COMMAND_ORIGINS_PER_THREAD, async (origin, reduced, compared) => {
          // per percentile, cutoff and column
          const line = new Float64Array(measuresPerOrigin);
          let at = 0;
          percentiles.forEach((_, p) => {
            measures.cutoffsSec.forEach((_, c) => {
              refs.forEach((_, k) => (line[at++] = valueAt(reduced, compared, k * perColumn + p * measures.cutoffsSec.length + c)));
            });
          });
          if (output) await output.writeOrigin(origin, line);
          else values.set(line, (origin - slice.from) * measuresPerOrigin);
          progress.update(++done);
        });
        progress.done();
        const versus = compared === undefined ? null : `${compared.param}=${compared.param === 'compare_scenario' ? compared.scenario : compared.level}`;
        if (isTiff) await file.write(accessibilityTiff(origins, slice, values, percentiles, measures.cutoffsSec, refs.map((r) => r.label), versus));
        await output?.finish();
        await closePart(file, 'accessibility', slice, runIdentity('accessibility', decisiveArgs(own, parsed.values)));
      } catch (e) {
        progress.done();
        file.abandon();
        throw e;
      }
      process.stderr.write(`${out}: ${slice.to - slice.from} origins, ${measuresPerOrigin} measures each in ${elapsed(started)}, ${peakMemory()}\n`);
    } finally {
      await pool.close();
    }
  });
}


interface Origins {
  ids: string[];
  lon: ArrayLike<number>;
  lat: ArrayLike<number>;
  /** the grid the origins are the cells of (--grid), and each origin's cell (i * R + j) */
  grid?: Grid;
  cells?: number[];
}

function pointSetOrigins(generation: Generation, name: string): Origins {
  const streets = generation.streets!;
  const index = pointSetIndex(generation, 'origins', name);
  const set = streets.data.pointSets![index]!;
  return { ids: streets.pointSets[index]!.ids, lon: set.lon, lat: set.lat };
}

/** `--grid METRES`: a cell size within the bounds. */
function gridMetres(text: string): number {
  const metres = Number(text);
  if (!(metres >= GRID_CELL_MIN_M && metres <= GRID_CELL_MAX_M)) throw new ConfigError(`--grid must be a cell size from ${GRID_CELL_MIN_M} to ${GRID_CELL_MAX_M} metres, not ${text}`);
  return metres;
}

/**
 * `--grid METRES`: the cells of a square grid over the street network's extent, cells of about that
 * size, their centres as origins; `i_j` ids (i west to east, j south to north, the heat maps' order).
 */
function gridOrigins(generation: Generation, text: string): Origins {
  const metres = gridMetres(text);
  const { graph } = generation.streets!.data;
  const box = vertexBox(graph);
  if (!box) throw new ConfigError('the coverage has no street: no grid of origins');
  const { minX, minY, maxX, maxY } = box;
  const p = graph.projection;
  const toLon = (x: number) => unprojectLon(p, x);
  const toLat = (y: number) => unprojectLat(p, y);
  const side = Math.max(maxX - minX, maxY - minY);
  const resolution = Math.max(1, Math.ceil(side / metres));
  // as a heat map's grid: past it, millions of origins and bands of gigabytes
  if (resolution > DEFAULT_LIMITS.maxResolution) throw new ConfigError(`--grid ${text} cuts the coverage into ${resolution} cells a side, more than ${DEFAULT_LIMITS.maxResolution}: give at least ${Math.ceil(side / DEFAULT_LIMITS.maxResolution)} metres`);
  const half = (resolution * metres) / 2;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const grid: Grid = { minLon: toLon(cx - half), maxLon: toLon(cx + half), minLat: toLat(cy - half), maxLat: toLat(cy + half), resolution };
  const { x0, dx } = cellGeometry(graph, grid);
  // the rows as a heat map's: even bands of latitude, as the GeoTIFF's pixels are
  const rowY = new Float64Array(resolution);
  rowCentres(graph, grid, rowY);
  const ids: string[] = [];
  const lon: number[] = [];
  const lat: number[] = [];
  const cells: number[] = [];
  for (let i = 0; i < resolution; i++) {
    for (let j = 0; j < resolution; j++) {
      const x = x0 + (i + 0.5) * dx;
      const y = rowY[j]!;
      // a cell with no walkable street within the link radius reaches nothing: not an origin
      if (!snapPoint(graph, Layer.Walk, x, y, LINK_RADIUS_M)) continue;
      ids.push(`${i}_${j}`);
      lon.push(toLon(x));
      lat.push(toLat(y));
      cells.push(i * resolution + j);
    }
  }
  return { ids, lon, lat, grid, cells };
}

/**
 * The measures of a grid's origins as a GeoTIFF: one Float32 band per percentile, cutoff and
 * opportunity column (in that order, described `p50 1800 s SET:COLUMN`), -1 (nodata) at the cells
 * that are no origin (no street within the link radius). Written whole, then renamed, as the CSV.
 */
/** The nodata of a GeoTIFF of differences, whose values may be −1 or any other number: the lowest Float32. */
const DIFFERENCE_NODATA = -3.4028234663852886e38;

/**
 * The GeoTIFF of a grid's accessibility, a band per percentile, cutoff and column; with a comparison
 * (`versus`: what the answer names it, `compare_scenario=base`), signed differences.
 */
function accessibilityTiff(origins: Origins, slice: { from: number; to: number }, values: Float64Array, percentiles: number[], cutoffs: number[], labels: string[], versus: string | null): Uint8Array {
  const nodata = versus === null ? TIFF_NODATA : DIFFERENCE_NODATA;
  const grid = origins.grid!;
  const cells = origins.cells!;
  const R = grid.resolution;
  const perOrigin = percentiles.length * cutoffs.length * labels.length;
  const bands: TiffBand[] = [];
  let measure = 0;
  for (const p of percentiles) {
    for (const cutoff of cutoffs) {
      for (const label of labels) {
        const band = new Float32Array(R * R).fill(nodata);
        for (let o = slice.from; o < slice.to; o++) band[cells[o]!] = values[(o - slice.from) * perOrigin + measure]!;
        bands.push({ seconds: band, description: `p${p} ${cutoff} s ${label}${versus === null ? '' : ` minus ${versus}`}` });
        measure++;
      }
    }
  }
  return writeGeoTiff(grid, bands, nodata);
}

/**
 * `navette merge --out FILE PART…`: the parts of a sharded run, in order, as one file (.gz parts and
 * output by their names). The parts must be one run's, all of them, in order, each whole, as their
 * manifests say (shard-parts.ts).
 */
export function mergeCommand(args: string[]): Promise<number> {
  return runCommand('merge', async () => {
    const outAt = args.indexOf('--out');
    const out = outAt >= 0 ? args[outAt + 1] : undefined;
    const parts = args.filter((_, k) => k !== outAt && k !== outAt + 1);
    if (!out || parts.length === 0) throw new ConfigError('give --out FILE and the parts, in order');
    const option = parts.find((part) => part.startsWith('--'));
    if (option) throw new ConfigError(`merge takes --out FILE and the parts only, not ${option}`);
    refuseUnmergeable(out, parts);
    const manifests = checkedParts(parts);
    const file = new OutputFile(out);
    try {
      await appendParts(file, parts, manifests);
      await file.close();
    } catch (e) {
      file.abandon();
      throw e;
    }
  });
}
