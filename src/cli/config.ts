/**
 * Server configuration: from a JSON file (several coverages) or from command-line flags (one).
 *
 *   { "coverages": [ { "id": "demo", "gtfs": ["gtfs"], "osm": "town.osm", "timezone": "Europe/Paris", "disruptions": "disruptions.json" } ],
 *     "port": 9090, "host": "0.0.0.0", "maxCount": 1000, "snapshots": "snapshots", "watchIntervalSec": 10 }
 *
 * Relative paths in a file are relative to the file's folder.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceLocation, type FeedSourceConfig } from '../live/realtime/feed-source.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../gtfs/read-limits.js';
import { DEFAULT_DISRUPTION_FILE_LIMITS, type DisruptionFileLimits } from '../live/disruptions/disruption-file.js';
import { BASE_SCENARIO, POINT_SET_NAME, SCENARIO_NAME, type CoverageConfig, type DisruptionSourceConfig, type ScenarioSourceConfig } from '../service/coverage-config.js';
import type { PointSetSource } from '../model/point-set.js';
import { operationsSettingsOf, type OperationsSettings } from '../api/operations/settings.js';
import { DEFAULT_LIMITS, type Limits } from '../service/limits.js';
import type { ExplorerSettings } from '../api/explorer/explorer-routes.js';
import { DEFAULT_BUDGET_MS } from '../service/worker-pool.js';


export interface ServerConfig {
  coverages: CoverageConfig[];
  port: number;
  host: string;
  /** `maxCount`, `heatMaps.maxDurationSec`, `heatMaps.maxResolution` */
  limits: Limits;
  heatMaps: HeatMapSettings;
  /** `rateLimit`, `tokens`, `cache` (api/operations/settings.ts) */
  operations: OperationsSettings;
  /** Folder of the coverages' snapshots (`navette build --out`); none: load from the sources. */
  snapshots?: string;
  /** Seconds between two checks of the coverages' files for a reload; 0 does not watch them. */
  watchIntervalSec: number;
  /** `explorer`: the page's online background, { tileUrl, tileAttribution } (default: none) */
  explorer: ExplorerSettings;
  /** The shard of each coverage, when the file names them (a `shard` key per coverage; shards.ts). */
  shards?: Record<string, string>;
  /** The configuration's coverages left out by `--only`: held by other replicas (onlyCoverages). */
  elsewhere?: CoverageConfig[];
}

export const DEFAULT_WATCH_INTERVAL_SEC = 10;

/** The worker pool of the heat maps (their limits are in `limits`). */
export interface HeatMapSettings {
  /** worker threads (default: one per core) */
  threads?: number;
  /** requests waiting beyond the running ones before 503 (default: 4 per thread) */
  maxQueue?: number;
  /** time budget of one heat map in milliseconds */
  budgetMs: number;
}

export const DEFAULT_HEAT_MAP_SETTINGS: HeatMapSettings = { budgetMs: DEFAULT_BUDGET_MS };

export const DEFAULT_PORT = 9090;

export class ConfigError extends Error {}

/** What a shard name must be (a DNS label, so that it can name Kubernetes objects; shards.ts). */
export const SHARD_NAME = /^[a-z0-9]([-a-z0-9]{0,30}[a-z0-9])?$/;

export function readConfigFile(file: string): ServerConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read configuration ${file}: ${(e as Error).message}`);
  }
  const dir = path.dirname(path.resolve(file));
  const obj = raw as Record<string, unknown>;
  if (!obj || typeof obj !== 'object' || !Array.isArray(obj['coverages'])) throw new ConfigError(`${file}: expected an object with a "coverages" array`);
  const coverages = (obj['coverages'] as unknown[]).map((c, i) => coverageOf(c, i, dir, file));
  const shards: Record<string, string> = {};
  (obj['coverages'] as Record<string, unknown>[]).forEach((c, i) => {
    const shard = c['shard'];
    if (shard === undefined) return;
    if (typeof shard !== 'string' || !SHARD_NAME.test(shard)) throw new ConfigError(`${file}: coverages[${i}].shard must be a lower-case name of letters, digits and dashes (a DNS label)`);
    shards[coverages[i]!.id] = shard;
  });
  return {
    shards: Object.keys(shards).length > 0 ? shards : undefined,
    coverages,
    port: numberOr(obj['port'], DEFAULT_PORT, `${file}: port`),
    host: typeof obj['host'] === 'string' ? obj['host'] : '0.0.0.0',
    limits: limitsOf(obj, file),
    heatMaps: heatMapSettingsOf(obj['heatMaps'], file),
    operations: operationsSettingsOf(obj, (message) => {
      throw new ConfigError(`${file}: ${message}`);
    }),
    snapshots: snapshotsOf(obj['snapshots'], dir, file),
    watchIntervalSec: watchIntervalOf(obj['watchIntervalSec'], `${file}: watchIntervalSec`),
    explorer: explorerOf(obj['explorer'], file),
  };
}

/** `explorer`: { tileUrl, tileAttribution }: a raster tile URL with {z}, {x} and {y}, and its attribution (HTML). */
function explorerOf(v: unknown, file: string): ExplorerSettings {
  if (v === undefined) return {};
  const o = v as Record<string, unknown>;
  if (!o || typeof o !== 'object') throw new ConfigError(`${file}: explorer must be an object`);
  const { tileUrl, tileAttribution } = o;
  if (tileUrl !== undefined && (typeof tileUrl !== 'string' || !/^https?:\/\/.*\{z\}.*\{x\}.*\{y\}/.test(tileUrl))) {
    throw new ConfigError(`${file}: explorer.tileUrl must be an http(s) URL with {z}, {x} and {y}`);
  }
  if (tileAttribution !== undefined && typeof tileAttribution !== 'string') throw new ConfigError(`${file}: explorer.tileAttribution must be a string`);
  return { tileUrl: tileUrl as string | undefined, tileAttribution: tileAttribution as string | undefined };
}

/**
 * `--only ID,ID…`: serve those coverages of the configuration, the others being served by other
 * replicas (their ids stay known, for the merged coverage list).
 */
export function onlyCoverages(config: ServerConfig, only: string): ServerConfig {
  const ids = only.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = ids.filter((id) => !config.coverages.some((c) => c.id === id));
  if (ids.length === 0) throw new ConfigError('--only must list coverage ids, comma-separated');
  if (unknown.length > 0) throw new ConfigError(`--only: no coverage ${unknown.join(', ')} in the configuration (${config.coverages.map((c) => c.id).join(', ')})`);
  return { ...config, coverages: config.coverages.filter((c) => ids.includes(c.id)), elsewhere: config.coverages.filter((c) => !ids.includes(c.id)) };
}

function snapshotsOf(v: unknown, dir: string, file: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new ConfigError(`${file}: snapshots must be the path of a folder`);
  return path.resolve(dir, v);
}

/** Seconds between two checks of the files (0: no watching). */
export function watchIntervalOf(v: unknown, what: string): number {
  if (v === undefined) return DEFAULT_WATCH_INTERVAL_SEC;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ConfigError(`${what} must be a number of seconds, 0 or more (0: do not watch)`);
  return v;
}

function heatMapSettingsOf(v: unknown, file: string): HeatMapSettings {
  if (v === undefined) return { ...DEFAULT_HEAT_MAP_SETTINGS };
  if (!v || typeof v !== 'object') throw new ConfigError(`${file}: heatMaps must be an object`);
  const o = v as Record<string, unknown>;
  const d = DEFAULT_HEAT_MAP_SETTINGS;
  return {
    threads: o['threads'] === undefined ? undefined : numberOr(o['threads'], 1, `${file}: heatMaps.threads`),
    maxQueue: o['maxQueue'] === undefined ? undefined : numberOr(o['maxQueue'], 1, `${file}: heatMaps.maxQueue`),
    budgetMs: numberOr(o['budgetMs'], d.budgetMs, `${file}: heatMaps.budgetMs`),
  };
}

/** `maxCount` at the top of the file, the heat maps' limits in `heatMaps` (where they have always been). */
function limitsOf(obj: Record<string, unknown>, file: string): Limits {
  const heatMaps = (obj['heatMaps'] && typeof obj['heatMaps'] === 'object' ? obj['heatMaps'] : {}) as Record<string, unknown>;
  const d = DEFAULT_LIMITS;
  return {
    maxCount: numberOr(obj['maxCount'], d.maxCount, `${file}: maxCount`),
    maxDurationSec: numberOr(heatMaps['maxDurationSec'], d.maxDurationSec, `${file}: heatMaps.maxDurationSec`),
    maxResolution: numberOr(heatMaps['maxResolution'], d.maxResolution, `${file}: heatMaps.maxResolution`),
    requestDeadlineSec: numberOr(heatMaps['requestDeadlineSec'], d.requestDeadlineSec, `${file}: heatMaps.requestDeadlineSec`),
    mapDeadlineSec: numberOr(heatMaps['mapDeadlineSec'], d.mapDeadlineSec, `${file}: heatMaps.mapDeadlineSec`),
    accessibilityDeadlineSec: numberOr(heatMaps['accessibilityDeadlineSec'], d.accessibilityDeadlineSec, `${file}: heatMaps.accessibilityDeadlineSec`),
    engineCacheBytes: numberOr(heatMaps['engineCacheBytes'], d.engineCacheBytes, `${file}: heatMaps.engineCacheBytes`),
  };
}

function coverageOf(c: unknown, i: number, dir: string, file: string): CoverageConfig {
  const o = c as Record<string, unknown>;
  const where = `${file}: coverages[${i}]`;
  if (!o || typeof o !== 'object') throw new ConfigError(`${where} must be an object`);
  if (typeof o['id'] !== 'string' || !/^[^/;()]+$/.test(o['id'])) throw new ConfigError(`${where}.id must be a name without / ; ( )`);
  const gtfs = typeof o['gtfs'] === 'string' ? [o['gtfs']] : o['gtfs'];
  if (!Array.isArray(gtfs) || gtfs.length === 0 || !gtfs.every((g) => typeof g === 'string')) throw new ConfigError(`${where}.gtfs must be a path or a list of paths`);
  if (o['osm'] !== undefined && typeof o['osm'] !== 'string') throw new ConfigError(`${where}.osm must be a path`);
  if (o['timezone'] !== undefined && typeof o['timezone'] !== 'string') throw new ConfigError(`${where}.timezone must be a time zone name`);
  const coverage: CoverageConfig = {
    id: o['id'],
    gtfs: (gtfs as string[]).map((g) => path.resolve(dir, g)),
    osm: typeof o['osm'] === 'string' ? path.resolve(dir, o['osm']) : undefined,
    timezone: o['timezone'] as string | undefined,
    realtime: realtimeOf(o['realtime'], dir, `${where}.realtime`),
  };
  const disruptions = disruptionsOf(o['disruptions'], dir, `${where}.disruptions`);
  if (disruptions) coverage.disruptions = disruptions;
  if (o['readLimits'] !== undefined) coverage.readLimits = readLimitsOf(o['readLimits'], `${where}.readLimits`);
  if (o['boardSlackSec'] !== undefined) coverage.boardSlackSec = parseBoardSlack(o['boardSlackSec'], `${where}.boardSlackSec`);
  if (o['pointSets'] !== undefined) coverage.pointSets = pointSetsOf(o['pointSets'], dir, `${where}.pointSets`);
  if (o['scenarios'] !== undefined) coverage.scenarios = scenariosOf(o['scenarios'], dir, `${where}.scenarios`);
  return coverage;
}

/** `scenarios`: { NAME: FILE }, each an R5 scenario JSON file (docs/scenarios.md). */
function scenariosOf(v: unknown, dir: string, where: string): ScenarioSourceConfig[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(`${where} must map scenario names to files`);
  return Object.entries(v as Record<string, unknown>).map(([name, file]) => {
    const at = `${where}.${name}`;
    if (!SCENARIO_NAME.test(name)) throw new ConfigError(`${at}: a scenario's name is 1 to 64 letters, digits, _ or -`);
    if (name === BASE_SCENARIO) throw new ConfigError(`${at}: ${BASE_SCENARIO} names the timetable without a scenario (compare_scenario=${BASE_SCENARIO}); choose another name`);
    if (typeof file !== 'string' || file === '') throw new ConfigError(`${at} must be a path`);
    return { name, path: path.resolve(dir, file) };
  });
}

/** `--scenario NAME=FILE`, repeated: the scenarios of a coverage given by flags. */
export function scenariosFromFlags(flags: string[]): ScenarioSourceConfig[] {
  return scenariosOf(Object.fromEntries(namedFiles(flags, '--scenario', 'scenario')), process.cwd(), '--scenario');
}

/**
 * `pointSets`: { NAME: FILE } or { NAME: { file, id, lon, lat, opportunities } }, the columns of
 * the id and the position (default id, lon, lat) and the opportunity columns kept (default: all others).
 */
function pointSetsOf(v: unknown, dir: string, where: string): PointSetSource[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(`${where} must map point set names to files`);
  return Object.entries(v as Record<string, unknown>).map(([name, entry]) => {
    const at = `${where}.${name}`;
    if (!POINT_SET_NAME.test(name)) throw new ConfigError(`${at}: a point set's name is 1 to 64 letters, digits, _ or -`);
    const o = (typeof entry === 'string' ? { file: entry } : entry) as Record<string, unknown>;
    if (!o || typeof o !== 'object' || typeof o['file'] !== 'string') throw new ConfigError(`${at} must be a path or { "file": … }`);
    const set: PointSetSource = { name, file: path.resolve(dir, o['file']) };
    for (const [key, field] of [['id', 'idColumn'], ['lon', 'lonColumn'], ['lat', 'latColumn']] as const) {
      if (o[key] === undefined) continue;
      if (typeof o[key] !== 'string' || o[key] === '') throw new ConfigError(`${at}.${key} must be a column name`);
      set[field] = o[key] as string;
    }
    if (o['opportunities'] !== undefined) {
      const columns = o['opportunities'];
      if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c) => typeof c === 'string' && c !== '')) throw new ConfigError(`${at}.opportunities must be a list of column names`);
      set.opportunities = columns as string[];
    }
    return set;
  });
}

/** `--points NAME=FILE`, repeated: point sets of a coverage given by flags. */
export function pointSetsFromFlags(flags: string[]): PointSetSource[] {
  return pointSetsOf(Object.fromEntries(namedFiles(flags, '--points', 'point set')), process.cwd(), '--points');
}

/** `OPTION NAME=FILE` flags, repeated: the names and files, each name once. */
function namedFiles(flags: string[], option: string, noun: string): (readonly [string, string])[] {
  const pairs = flags.map((flag) => {
    const at = flag.indexOf('=');
    if (at <= 0 || at === flag.length - 1) throw new ConfigError(`${option} must be NAME=FILE, not ${flag}`);
    return [flag.slice(0, at), flag.slice(at + 1)] as const;
  });
  const names = pairs.map(([name]) => name);
  const repeated = names.find((name, k) => names.indexOf(name) !== k);
  if (repeated) throw new ConfigError(`${option}: the ${noun} ${repeated} is given twice`);
  return pairs;
}

/** `readLimits`: { maxLineBytes, maxInflateRatio, inflateAllowanceBytes }, each a positive number (gtfs/read-limits.ts). */
function readLimitsOf(v: unknown, where: string): Partial<ReadLimits> {
  if (!v || typeof v !== 'object') throw new ConfigError(`${where} must be an object`);
  const o = v as Record<string, unknown>;
  const limits: Partial<ReadLimits> = {};
  for (const key of Object.keys(o)) {
    if (!(key in DEFAULT_READ_LIMITS)) throw new ConfigError(`${where}.${key} is not a read limit (${Object.keys(DEFAULT_READ_LIMITS).join(', ')})`);
    const n = o[key];
    if (typeof n !== 'number' || !(n > 0)) throw new ConfigError(`${where}.${key} must be a positive number`);
    limits[key as keyof ReadLimits] = n;
  }
  return limits;
}

/** `disruptions`: the disruptions file, a path or { path, intervalSec, and the limits of DisruptionFileLimits }. */
function disruptionsOf(v: unknown, dir: string, where: string): DisruptionSourceConfig | undefined {
  if (v === undefined) return undefined;
  const o = (typeof v === 'string' ? { path: v } : v) as Record<string, unknown>;
  if (!o || typeof o !== 'object' || typeof o['path'] !== 'string') throw new ConfigError(`${where} must be a path or { "path": … }`);
  const intervalSec = o['intervalSec'] === undefined ? undefined : numberOr(o['intervalSec'], 5, `${where}.intervalSec`);
  const source: DisruptionSourceConfig = { path: path.resolve(dir, o['path']), intervalSec };
  for (const key of Object.keys(DEFAULT_DISRUPTION_FILE_LIMITS) as (keyof DisruptionFileLimits)[]) {
    if (o[key] !== undefined) source[key] = numberOr(o[key], 0, `${where}.${key}`);
  }
  return source;
}

/** `realtime`: a list of sources, each a path, a URL, or { url, intervalSec, headers, maxBytes }. */
function realtimeOf(v: unknown, dir: string, where: string): FeedSourceConfig[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new ConfigError(`${where} must be a list of sources`);
  return v.map((item, i) => {
    const o = (typeof item === 'string' ? { url: item } : item) as Record<string, unknown>;
    if (!o || typeof o !== 'object' || typeof o['url'] !== 'string') throw new ConfigError(`${where}[${i}] must be a path, a URL or { "url": … }`);
    const url = sourceLocation(o['url'], dir);
    const headers = o['headers'];
    if (headers !== undefined && (typeof headers !== 'object' || headers === null || !Object.values(headers).every((h) => typeof h === 'string'))) {
      throw new ConfigError(`${where}[${i}].headers must map header names to strings`);
    }
    const intervalSec = o['intervalSec'] === undefined ? undefined : numberOr(o['intervalSec'], 30, `${where}[${i}].intervalSec`);
    const source: FeedSourceConfig = { url, intervalSec, headers: headers as Record<string, string> | undefined };
    if (o['maxBytes'] !== undefined) source.maxBytes = numberOr(o['maxBytes'], 0, `${where}[${i}].maxBytes`);
    return source;
  });
}

/** `boardSlackSec`: whole seconds, 0 to an hour. */
export function parseBoardSlack(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 3600) throw new ConfigError(`${what} must be a whole number of seconds from 0 to 3600`);
  return v;
}

function numberOr(v: unknown, fallback: number, what: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ConfigError(`${what} must be a positive integer`);
  return v;
}
