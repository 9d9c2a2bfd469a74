/**
 * The coverages of a running server: each loaded (from its snapshot or its sources) with a log of
 * what happened, its disruptions file and realtime sources polled once it has data, and reloaded on
 * demand or when its files change.
 */
import type { FastifyBaseLogger } from 'fastify';
import { FeedError } from '../gtfs/load-report.js';
import type { Metrics } from '../api/operations/metrics.js';
import { FeedSource } from '../live/realtime/feed-source.js';
import type { Coverage, CoverageRegistry } from '../service/coverage-registry.js';
import { CoverageReloader } from '../service/coverage-reloader.js';
import { snapshotPath } from '../service/coverage-snapshot.js';
import { startScenarios } from '../service/scenario-library.js';
import { DisruptionSource } from '../service/disruption-source.js';
import { generationCounts, loadCoverage } from '../service/load-coverage.js';
import { RealtimeUpdater } from '../service/realtime-updater.js';
import { progressPrinter } from './progress.js';

export interface ServedCoveragesOptions {
  log: FastifyBaseLogger;
  metrics: Metrics;
  /** the folder of the coverages' snapshots, if any */
  snapshotDir: string | undefined;
  /** seconds between two checks of the coverages' files; 0: no watching */
  watchIntervalSec: number;
}

export class ServedCoverages {
  private readonly reloaders: CoverageReloader[];

  constructor(
    private readonly registry: CoverageRegistry,
    private readonly options: ServedCoveragesOptions,
  ) {
    this.reloaders = registry.list().map(
      (coverage) =>
        new CoverageReloader(coverage, {
          load: (c, reason) => this.load(c, reason),
          snapshotFile: options.snapshotDir ? snapshotPath(options.snapshotDir, coverage.id) : undefined,
          watchIntervalSec: options.watchIntervalSec,
        }),
    );
  }

  /** Load every coverage in turn, then watch its files; resolves with the number loaded. */
  async loadAll(): Promise<number> {
    for (const reloader of this.reloaders) {
      await reloader.reload('start');
      // a coverage that failed to load is watched too: mended files bring it up
      reloader.watch();
    }
    return this.registry.list().filter((c) => c.generation).length;
  }

  /** Reload every coverage (each after the load under way, if any). */
  reloadAll(reason: string): void {
    for (const reloader of this.reloaders) void reloader.reload(reason);
  }

  /** Load a coverage (at start or on a reload) and log what happened; false when it failed. */
  private async load(coverage: Coverage, reason: string): Promise<boolean> {
    const progress = progressPrinter(`loading ${coverage.id}`);
    const log = this.options.log.child({ coverage: coverage.id });
    try {
      const summary = await loadCoverage(coverage, {
        snapshotDir: this.options.snapshotDir,
        onProgress: progress.update,
        onProblem: (p) => log.warn({ file: p.file, line: p.line }, p.reason),
        onWaitForSnapshot: (lockFile) => log.info({ lockFile }, `waiting for the snapshot of ${coverage.id} that another process writes`),
      });
      progress.done();
      if (summary.snapshotRefused) log.warn(`snapshot not used, loading from the sources: ${summary.snapshotRefused}`);
      this.options.metrics.coverageLoaded(coverage.id, summary.seconds);
      const counts = generationCounts(summary.generation);
      log.info(
        { reason, from: summary.from, generation: summary.generation.number, seconds: Number(summary.seconds.toFixed(3)), memoryMB: Math.round(summary.memoryBytes / 1e6), ...counts },
        `coverage ${coverage.id} loaded from its ${summary.from === 'snapshot' ? 'snapshot' : 'sources'} in ${summary.seconds.toFixed(2)} s (${reason})`,
      );
      if (summary.snapshotWritten) {
        const w = summary.snapshotWritten;
        log.info({ file: w.file, bytes: w.bytes, seconds: Number(w.seconds.toFixed(3)) }, `snapshot written: ${w.file}`);
      }
      if (summary.snapshotWriteError) log.error(summary.snapshotWriteError);
      if (summary.from === 'sources') {
        for (const line of summary.generation.report.summary()) log.warn(`problems: ${line}`);
        for (const note of summary.generation.report.notes) log.info(note);
      }
      this.startSources(coverage);
      return true;
    } catch (e) {
      progress.done();
      const message = e instanceof FeedError ? e.message : `${(e as Error).message}`;
      const kept = coverage.generation ? ', the loaded data stays in service' : '';
      log.error(`coverage ${coverage.id} could not be loaded (${reason})${kept}: ${message}`);
      return false;
    }
  }

  /** Poll a coverage's disruptions file and realtime sources, once it has data. */
  private startSources(coverage: Coverage): void {
    const { log, metrics } = this.options;
    if (coverage.config.disruptions && !coverage.disruptionSource) {
      coverage.disruptionSource = new DisruptionSource(coverage, coverage.config.disruptions, log);
      coverage.disruptionSource.start();
    }
    if (coverage.config.scenarios?.length && !coverage.scenarios) void startScenarios(coverage, coverage.config.scenarios, log);
    if (coverage.config.realtime?.length && !coverage.realtime) {
      coverage.realtime = new RealtimeUpdater(coverage, coverage.config.realtime.map((c) => new FeedSource(c)), log);
      coverage.realtime.onApplied = (seconds) => metrics.realtimeApplied(coverage.id, seconds);
      coverage.realtime.start();
    }
  }
}
