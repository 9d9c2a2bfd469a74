/**
 * Reloads of a running coverage: on demand (SIGHUP) and when its source files or its snapshot
 * change. The new generation is loaded aside while the current one keeps answering, then swapped
 * in whole (coverage-registry.ts); requests under way finish on the generation they took.
 *
 * Files are watched by their sizes and times, checked at an interval: the GTFS, the OpenStreetMap
 * extract and the point sets' files (service/source-files.ts). A change is acted on once two checks
 * in a row see the same state, so that a file still being copied is not read half-written. A file
 * that changes during the load anyway is caught there (the point-set reader refuses a file changed
 * while it was read, and a last line without its line end): the state recorded is the one from
 * before the load, so the change is seen and loaded again once settled.
 * One reload runs at a time; a request for another while one runs makes one more afterwards.
 */
import type { Coverage } from './coverage-registry.js';
import { coverageSourcePaths, filesStamp } from './source-files.js';

export interface ReloaderOptions {
  /** Load the coverage and install the new generation; false when the load failed (the old one stays). */
  load: (coverage: Coverage, reason: string) => Promise<boolean>;
  /** The coverage's snapshot file, watched too. */
  snapshotFile?: string;
  /** Seconds between two checks of the files; 0 does not watch them. */
  watchIntervalSec: number;
}

export class CoverageReloader {
  private stamp: string;
  private candidate: string | undefined;
  private running: Promise<void> | undefined;
  private pendingReason: string | undefined;

  constructor(
    readonly coverage: Coverage,
    private readonly options: ReloaderOptions,
  ) {
    this.stamp = this.currentStamp();
  }

  /** Check the files at the interval. */
  watch(): void {
    if (this.options.watchIntervalSec <= 0) return;
    setInterval(() => this.check(), this.options.watchIntervalSec * 1000).unref();
  }

  /** Compare the files with the last loaded state; reload once a change has settled. True when a reload started. */
  check(): boolean {
    if (this.running) return false;
    const now = this.currentStamp();
    if (now === this.stamp) {
      this.candidate = undefined;
      return false;
    }
    if (now !== this.candidate) {
      this.candidate = now; // changed: wait for one more check to see it settled
      return false;
    }
    this.candidate = undefined;
    void this.reload('files changed');
    return true;
  }

  /** Reload now (or right after the reload under way); resolves when the coverage is reloaded. */
  reload(reason: string): Promise<void> {
    if (this.running) {
      this.pendingReason = reason;
      return this.running.then(() => this.running ?? Promise.resolve());
    }
    this.running = this.run(reason).finally(() => {
      this.running = undefined;
      const next = this.pendingReason;
      this.pendingReason = undefined;
      if (next !== undefined) void this.reload(next);
    });
    return this.running;
  }

  private async run(reason: string): Promise<void> {
    const sources = this.sourcesStamp();
    await this.options.load(this.coverage, reason);
    // the snapshot as the load left it (it may have rewritten it): not a change to reload for
    this.stamp = `${sources}\n${this.snapshotStamp()}`;
  }

  private currentStamp(): string {
    return `${this.sourcesStamp()}\n${this.snapshotStamp()}`;
  }

  private sourcesStamp(): string {
    try {
      return filesStamp(coverageSourcePaths(this.coverage.config));
    } catch (e) {
      return `unreadable: ${(e as Error).message}`;
    }
  }

  private snapshotStamp(): string {
    return this.options.snapshotFile ? filesStamp([this.options.snapshotFile]) : '';
  }
}
