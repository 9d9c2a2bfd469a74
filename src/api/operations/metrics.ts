/**
 * Prometheus metrics (prom-client), on a registry of their own so that several apps (tests) never
 * share counters. Names, labels and units:
 *
 *   navette_http_request_duration_seconds{kind, coverage, status}  histogram of every answer
 *       kind: coverage | trips | heat_maps | isochrones | other; coverage: a known coverage id, else ""
 *   navette_heat_map_queue_depth                         gauge, heat maps running or waiting (read at scrape)
 *   navette_heat_map_compute_seconds{coverage, outcome}  histogram around the runner (its fair queue's wait included)
 *       outcome: ok | queue_full | timeout | deadline | error
 *   navette_coverage_load_seconds{coverage}              gauge, duration of the coverage's last load
 *   navette_coverage_generation{coverage}                gauge, its data generation number (read at scrape)
 *   navette_coverage_ready{coverage}                     gauge, 1 when it answers from data (read at scrape)
 *   navette_realtime_apply_seconds{coverage}             histogram of applying realtime messages
 *   navette_disruptions_file_reads_total{coverage, outcome}  counter of disruptions file reads (read at scrape)
 *       outcome: applied | refused
 *   navette_cache_bytes{cache}                           gauge, bytes held by each cache that grows with use (read at scrape)
 *       cache: engines | egress_tables | time_zones | raptor_overlays | scenario_overlays (one per
 *       scenario and timetable, which do not grow with use but are counted with the rest)
 *   process_*, nodejs_*                                  prom-client's default metrics (memory, event loop, GC)
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import { WorkUnavailable } from '../../service/worker-pool.js';
import { type HeatMapRunner } from '../../maps/heat-map-runner.js';
import { timeZoneCacheBytes } from '../../util/time-zones.js';

export type RouteKind = 'coverage' | 'trips' | 'heat_maps' | 'isochrones' | 'other';

export class Metrics {
  readonly registry = new Registry();
  private readonly requestSeconds: Histogram<'kind' | 'coverage' | 'status'>;
  private readonly heatMapSeconds: Histogram<'coverage' | 'outcome'>;
  private readonly loadSeconds: Gauge<'coverage'>;
  private readonly realtimeApplySeconds: Histogram<'coverage'>;
  /** heat maps handed to the runner and not finished */
  private heatMapsInFlight = 0;
  private watched: CoverageRegistry | undefined;
  /** the runner whose caches are measured (instrument) */
  private runner: HeatMapRunner | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestSeconds = new Histogram({
      name: 'navette_http_request_duration_seconds',
      help: 'Time to answer a request, by endpoint kind, coverage and HTTP status',
      labelNames: ['kind', 'coverage', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.heatMapSeconds = new Histogram({
      name: 'navette_heat_map_compute_seconds',
      help: 'Time of a heat map in the worker pool, waiting included, by coverage and outcome',
      labelNames: ['coverage', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    const inFlight = () => this.heatMapsInFlight;
    new Gauge({
      name: 'navette_heat_map_queue_depth',
      help: 'Heat maps running or waiting for a thread',
      registers,
      collect() {
        this.set(inFlight());
      },
    });
    const caches = () => this.cacheBytes();
    new Gauge({
      name: 'navette_cache_bytes',
      help: 'Bytes held by each cache that grows with use, over the main thread and the worker threads (each bounded: docs/operating.md, Memory)',
      labelNames: ['cache'],
      registers,
      collect() {
        for (const [cache, bytes] of Object.entries(caches())) this.set({ cache }, bytes);
      },
    });
    this.loadSeconds = new Gauge({ name: 'navette_coverage_load_seconds', help: 'Duration of the last load of the coverage', labelNames: ['coverage'], registers });
    this.realtimeApplySeconds = new Histogram({
      name: 'navette_realtime_apply_seconds',
      help: 'Time to read the current realtime messages against the timetable and swap in a new generation',
      labelNames: ['coverage'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
  }

  /** Heat maps running or waiting. */
  get heatMapQueueDepth(): number {
    return this.heatMapsInFlight;
  }

  /** The coverages' generation and readiness, read at each scrape. */
  watchCoverages(coverages: CoverageRegistry): void {
    if (this.watched) return;
    this.watched = coverages;
    const registers = [this.registry];
    new Gauge({
      name: 'navette_coverage_generation',
      help: 'Data generation number in force (it changes at each load and realtime update)',
      labelNames: ['coverage'],
      registers,
      collect() {
        this.reset();
        for (const c of coverages.list()) if (c.generation) this.set({ coverage: c.id }, c.generation.number);
      },
    });
    new Gauge({
      name: 'navette_coverage_ready',
      help: '1 when the coverage answers from its data, 0 while loading or dead',
      labelNames: ['coverage'],
      registers,
      collect() {
        this.reset();
        for (const c of coverages.list()) this.set({ coverage: c.id }, c.generation ? 1 : 0);
      },
    });
    new Counter({
      name: 'navette_disruptions_file_reads_total',
      help: 'Reads of the coverage\'s disruptions file, applied or refused (the last good state then stays)',
      labelNames: ['coverage', 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const c of coverages.list()) {
          const status = c.disruptionSource?.status();
          if (!status) continue;
          this.inc({ coverage: c.id, outcome: 'applied' }, status.loads);
          this.inc({ coverage: c.id, outcome: 'refused' }, status.failures);
        }
      },
    });
  }

  /**
   * What the caches hold now, bytes: the runner's (the engines and egress tables of its threads, their
   * time zones), this thread's time zones, the RAPTOR overlays of the coverages' generations, and
   * their scenarios' overlays.
   */
  cacheBytes(): Record<string, number> {
    const runner = this.runner?.cacheBytes?.() ?? { engines: 0, egress_tables: 0, time_zones: 0 };
    let overlays = 0;
    let scenarios = 0;
    for (const c of this.watched?.list() ?? []) {
      overlays += c.generation?.overlays?.bytes ?? 0;
      scenarios += c.scenarios?.bytes() ?? 0;
    }
    return { ...runner, time_zones: runner.time_zones + timeZoneCacheBytes(), raptor_overlays: overlays, scenario_overlays: scenarios };
  }

  observeRequest(kind: RouteKind, coverage: string, status: number, seconds: number): void {
    this.requestSeconds.observe({ kind, coverage, status: String(status) }, seconds);
  }

  coverageLoaded(coverage: string, seconds: number): void {
    this.loadSeconds.set({ coverage }, seconds);
  }

  realtimeApplied(coverage: string, seconds: number): void {
    this.realtimeApplySeconds.observe({ coverage }, seconds);
  }

  /** The runner, timed and counted, its caches' bytes read at each scrape. */
  instrument(runner: HeatMapRunner): HeatMapRunner {
    this.runner = runner;
    return {
      grid: (coverageId, generation, query, render, turn) => this.timed(coverageId, () => runner.grid(coverageId, generation, query, render, turn)),
      points: (coverageId, generation, query, request, turn) => this.timed(coverageId, () => runner.points(coverageId, generation, query, request, turn)),
      cacheBytes: () => runner.cacheBytes?.() ?? { engines: 0, egress_tables: 0, time_zones: 0 },
      close: () => runner.close(),
    };
  }

  /** One computation on the runner, counted in flight and timed by its outcome. */
  private async timed<T>(coverageId: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.heatMapsInFlight++;
    let outcome = 'error';
    try {
      const result = await work();
      outcome = 'ok';
      return result;
    } catch (e) {
      if (e instanceof WorkUnavailable) outcome = e.reason;
      throw e;
    } finally {
      this.heatMapsInFlight--;
      this.heatMapSeconds.observe({ coverage: coverageId, outcome }, (performance.now() - started) / 1000);
    }
  }
}
