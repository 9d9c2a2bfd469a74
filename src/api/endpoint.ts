/**
 * The one road every coverage endpoint travels, in this order:
 *
 *   1. its parameters, read from its table (a bad parameter beats an unknown coverage);
 *   2. `inCoverage`, shared by all: the coverage the path names, its generation (an error when it
 *      has none yet), the time zone, and the envelope an engine error is answered in;
 *   3. the layer below (ptref, the heat-map runner…);
 *   4. its serialisation.
 *
 * An endpoint is a module that exports an `Endpoint`; coverage-routes.ts maps each target kind to
 * its endpoint, so that adding one is a module and a row.
 */
import type { Coverage, CoverageRegistry } from '../service/coverage-registry.js';
import type { Generation } from '../service/generation.js';
import type { Limits } from '../service/limits.js';
import type { HeatMapRunner } from '../maps/heat-map-runner.js';
import { DEFAULT_TIMEZONE } from '../util/time-zones.js';
import { resolveCoverage, type CoverageRef } from './coverage/coverage-resolution.js';
import { QueryError } from '../queries/query-errors.js';
import { ApiError, apiErrorOf, coverageUnavailable, type EngineEnvelope } from './errors.js';
import type { RequestInfo } from './links.js';
import { hasKey } from './query-string.js';
import { ptEnvelope } from './serialize.js';
import type { ParamSpec } from '../queries/param-table.js';

/** What an endpoint may use besides its request. */
export interface EndpointContext {
  registry: CoverageRegistry;
  limits: Limits;
  heatMaps: HeatMapRunner;
  acceptEncoding: string | undefined;
  /** aborted when the client goes away before its answer is sent: long work stops starting more */
  signal: AbortSignal;
  /** who asked (a configured token, else the address): the worker pool's turns rotate between clients */
  client: string;
}

/** An answer: its body, and its headers when it has others than `content-type: application/json`. */
export interface Answer {
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface Endpoint<T> {
  /** its parameter table (what `OPTIONS ?schema=true` shows) */
  params(target: T, limits: Limits): readonly ParamSpec[];
  answer(target: T, ctx: EndpointContext): Answer | Promise<Answer>;
  /** its body depends on `Accept-Encoding` (it comes compressed): every answer says so, errors included */
  variesByEncoding?: boolean;
}

/** A coverage ready to answer from, as `inCoverage` hands it to the work. */
export interface InCoverage {
  coverage: Coverage;
  generation: Generation;
  nowSec: number;
  /** the coverage's time zone */
  timeZone: string;
}

/** The body around an engine error of an endpoint, from what is known of its coverage. */
export type EnvelopeOf = (generation: Generation | undefined, nowSec: number, timeZone: string) => EngineEnvelope;

/**
 * Step 2 of every endpoint: the coverage `ref` names and its generation, then `work` on them; an
 * engine error (raised here or by the work) is answered inside the endpoint's envelope.
 */
export async function inCoverage<T>(ctx: EndpointContext, ref: CoverageRef, nowSec: number, envelopeOf: EnvelopeOf, work: (c: InCoverage) => T | Promise<T>): Promise<T> {
  const coverage = resolveCoverage(ctx.registry, ref);
  const generation = coverage.generation;
  const timeZone = generation?.tt.timezone ?? coverage.config.timezone ?? DEFAULT_TIMEZONE;
  const envelope = envelopeOf(generation, nowSec, timeZone);
  if (!generation) throw coverageUnavailable(coverage).within(envelope);
  try {
    return await work({ coverage, generation, nowSec, timeZone });
  } catch (thrown) {
    // a refusal of the query layer is answered as the API words it
    const e = thrown instanceof QueryError ? apiErrorOf(thrown) : thrown;
    if (e instanceof ApiError && e.body.family === 'engine' && !e.envelope) throw e.within(envelope);
    throw e;
  }
}

/** The envelope of the PT referential's answers (trips, collections, places): a zeroed pagination. */
export const ptEnvelopeOf =
  (info: RequestInfo): EnvelopeOf =>
  (generation, nowSec, timeZone) =>
    ptEnvelope(generation, nowSec, timeZone, hasKey(info.pairs, 'filter'));
