/**
 * The one way the suites serve coverages: a registry of the given coverages, each loaded as the
 * server loads it (`loadCoverage`), and the HTTP application over them, queried with `inject`
 * through `getAnswer`, `getJson` and `getOk` (answers read as test/helpers/http.ts reads them).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/api/app.js';
import type { Problem } from '../../src/gtfs/load-report.js';
import type { CoverageConfig } from '../../src/service/coverage-config.js';
import { Coverage, CoverageRegistry } from '../../src/service/coverage-registry.js';
import type { Generation } from '../../src/service/generation.js';
import { loadCoverage, type LoadOptions } from '../../src/service/load-coverage.js';
import { startScenarios } from '../../src/service/scenario-library.js';
import { answerOf, assertJson, type Answer } from './http.js';

export type { Answer };

export interface ServeOptions {
  /** options of the app besides the registry */
  app?: Omit<AppOptions, 'registry'>;
  /** options of every load (problems are collected in `ServedApp.problems` too) */
  load?: LoadOptions;
  /** coverages left unloaded (a coverage still loading) */
  unloaded?: string[];
  /** coverages whose load is expected to fail (a dead coverage) */
  failing?: string[];
}

export interface ServedApp {
  app: FastifyInstance;
  registry: CoverageRegistry;
  /** by id, in the order given */
  coverages: Map<string, Coverage>;
  /** the generation each loaded coverage got first */
  generations: Map<string, Generation>;
  problems: Problem[];
  close(): Promise<void>;
}

/** The scenarios' log in tests: their refusals are read from /scenarios, not from a log. */
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

export async function serveCoverages(configs: CoverageConfig[], options: ServeOptions = {}): Promise<ServedApp> {
  const registry = new CoverageRegistry();
  const coverages = new Map<string, Coverage>();
  const generations = new Map<string, Generation>();
  const problems: Problem[] = [];
  for (const config of configs) {
    const coverage = new Coverage(config);
    registry.add(coverage);
    coverages.set(config.id, coverage);
  }
  const onProblem = (p: Problem) => {
    problems.push(p);
    options.load?.onProblem?.(p);
  };
  for (const [id, coverage] of coverages) {
    if (options.unloaded?.includes(id)) continue;
    if (options.failing?.includes(id)) {
      await assert.rejects(loadCoverage(coverage, { ...options.load, onProblem }), `coverage ${id} was expected to fail to load`);
      continue;
    }
    await loadCoverage(coverage, { ...options.load, onProblem });
    if (coverage.config.scenarios?.length) await startScenarios(coverage, coverage.config.scenarios, silentLog);
    generations.set(id, coverage.generation!);
  }
  const app = await buildApp({ registry, ...options.app });
  await app.ready();
  const close = async () => {
    for (const coverage of coverages.values()) coverage.scenarios?.stop();
    await app.close();
  };
  return { app, registry, coverages, generations, problems, close };
}

/** GET `url` through `inject`. */
export async function getAnswer(app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await app.inject({ method: 'GET', url, headers });
  return answerOf(res.statusCode, res.headers, res.rawPayload, res.body);
}

/** `getAnswer`, failing when the body is not JSON. */
export async function getJson(app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return assertJson(await getAnswer(app, url, headers), url);
}

/** The parsed body of a 200 JSON answer to GET `url`; any other status fails, naming the url and the body. */
export async function getOk(app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<any> {
  const a = await getAnswer(app, url, headers);
  assert.equal(a.status, 200, `${url}: ${a.body.slice(0, 300)}`);
  return assertJson(a, url).json;
}
