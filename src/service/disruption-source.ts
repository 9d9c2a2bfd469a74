/**
 * A coverage's disruptions file, read at start and again whenever it changes (its size, time or
 * inode, checked at an interval: the stamp of source-files.ts). A good read swaps in a new
 * generation with the file's disruptions and the adapted runs they give; a read that fails is
 * logged and recorded, and the last good state stays in force.
 */
import { readFile, stat } from 'node:fs/promises';
import {
  aggregateProblems,
  DEFAULT_DISRUPTION_FILE_LIMITS,
  DisruptionFileError,
  parseDisruptionFile,
  parseDisruptionFileInSlices,
  type DisruptionFileLimits,
  type ParsedDisruptions,
} from '../live/disruptions/disruption-file.js';
import { DEFAULT_PLANNED_RUNS_BUDGET, plannedRuns, plannedRunsInSlices, PlannedRunsBudgetError, type PlannedRuns } from '../live/disruptions/planned-runs.js';
import type { DisruptionSourceConfig } from './coverage-config.js';
import type { LiveTarget } from './live-target.js';
import { withDisruptions, type Generation, type GenerationChanges } from './generation.js';
import { DisruptionIndex } from '../live/disruptions/disruption-index.js';
import { LevelRuns } from '../ptref/realtime-freshness.js';
import { inSlices } from '../util/stepwise.js';
import type { UpdaterLog } from './realtime-updater.js';
import { fileStamp } from './source-files.js';

export interface DisruptionSourceStatus {
  path: string;
  /** epoch seconds of the last good read, null before any */
  last_load_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
  /** disruptions read by the last good read */
  disruptions: number;
  /** entries and objects skipped by the last good read */
  problems: number;
  loads: number;
  failures: number;
}

export class DisruptionSource {
  readonly intervalSec: number;
  readonly limits: DisruptionFileLimits;
  private readonly state: DisruptionSourceStatus;
  private stamp: string | undefined;
  /** the text of the last good read, applied again on each newly loaded generation */
  private lastGoodText: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private loading = false;

  constructor(
    readonly coverage: LiveTarget,
    readonly config: DisruptionSourceConfig,
    private readonly log: UpdaterLog,
  ) {
    this.intervalSec = config.intervalSec ?? 5;
    const limits = { ...DEFAULT_DISRUPTION_FILE_LIMITS };
    for (const key of Object.keys(limits) as (keyof DisruptionFileLimits)[]) limits[key] = config[key] ?? limits[key];
    this.limits = limits;
    this.state = { path: config.path, last_load_at: null, last_error: null, last_error_at: null, disruptions: 0, problems: 0, loads: 0, failures: 0 };
  }

  /** Read the file now, then check it at the interval. */
  start(): void {
    // a failure nobody awaits is recorded like any other, never left to crash the process
    const check = () => void this.check().catch((e: Error) => this.failed(`${this.config.path}: ${e.message}`));
    check();
    this.timer = setInterval(check, this.intervalSec * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Read the file if it changed since the last check; true when a new state was swapped in. */
  async check(): Promise<boolean> {
    if (this.loading) return false; // the previous read is still under way: the next check sees the change
    const stamp = fileStamp(this.config.path) ?? 'missing';
    if (stamp === this.stamp) return false;
    this.stamp = stamp;
    if (stamp === 'missing') {
      this.failed(`cannot read ${this.config.path}: no such file`);
      return false;
    }
    return this.load();
  }

  /**
   * Read and apply the file, off the event loop: read asynchronously, parsed in a worker thread,
   * its entries read a slice at a time (disruption-file.ts), the runs they change made a slice at a
   * time (planned-runs.ts); only indexing the disruptions and the runs, and the swap, are one piece.
   */
  async load(nowSec = Math.floor(Date.now() / 1000)): Promise<boolean> {
    if (!this.coverage.generation) return false;
    this.loading = true;
    try {
      let text: string;
      try {
        const size = (await stat(this.config.path)).size;
        if (size > this.limits.maxBytes) {
          this.failed(`${this.config.path}: ${size} bytes, more than the ${this.limits.maxBytes} allowed (disruptions.maxBytes): refused`, nowSec);
          return false;
        }
        text = await readFile(this.config.path, 'utf8');
      } catch (e) {
        this.failed(`cannot read ${this.config.path}: ${(e as Error).message}`, nowSec);
        return false;
      }
      let applied;
      try {
        const generation = this.coverage.generation;
        const parsed = await parseDisruptionFileInSlices(text, this.config.path, generation.ref, generation.tt.timezone, this.limits);
        const planned = await plannedRunsInSlices(generation.ref, parsed.disruptions, generation.productionStartDay, generation.productionEndDay, this.budget).catch((e) => {
          throw this.refusal(e);
        });
        // the index and the adapted level built aside, a slice at a time: the swap is then quick
        const built = {
          index: await DisruptionIndex.inSlices(generation.ref, parsed.disruptions, generation.disruptions.alerts),
          adapted: await inSlices(LevelRuns.steps(planned.runs)),
        };
        // A generation swapped in meanwhile by realtime shares the timetable: what was read holds, only
        // the index is made again while its alerts keep changing. A reload brings another timetable:
        // the file is then read again, in one piece.
        let current = this.coverage.generation!;
        let { index } = built;
        let indexedAlerts = generation.disruptions.alerts;
        while (current.tt === generation.tt && current.disruptions.alerts !== indexedAlerts) {
          indexedAlerts = current.disruptions.alerts;
          index = await DisruptionIndex.inSlices(current.ref, parsed.disruptions, indexedAlerts);
          current = this.coverage.generation!;
        }
        applied = current.tt === generation.tt ? this.applied(parsed, planned, current, { ...built, index }) : this.read(text, current);
      } catch (e) {
        if (!(e instanceof DisruptionFileError)) throw e;
        this.failed(e.message, nowSec);
        return false;
      }
      return this.install(text, applied, nowSec);
    } finally {
      this.loading = false;
    }
  }

  private install(text: string, applied: ReturnType<DisruptionSource['applied']>, nowSec: number): boolean {
    this.lastGoodText = text;
    this.coverage.swap(applied.generation);
    for (const p of aggregateProblems(applied.problems)) this.log.warn({ coverage: this.coverage.id }, p);
    Object.assign(this.state, { last_load_at: nowSec, disruptions: applied.disruptions, problems: applied.problems.length, loads: this.state.loads + 1 });
    this.log.info(
      { coverage: this.coverage.id, disruptions: applied.disruptions, adaptedRuns: applied.adaptedRuns, problems: applied.problems.length },
      `disruptions file read: ${applied.disruptions} disruptions, ${applied.adaptedRuns} runs changed at the adapted level, ${applied.problems.length} problems`,
    );
    return true;
  }

  /**
   * `generation` with the disruptions of the last good read (a newly loaded generation gets them
   * before it is installed; they are read again against its data).
   */
  /** Whether the file has been read well once (LiveSource). */
  get hasState(): boolean {
    return this.lastGoodText !== undefined;
  }

  applyTo(generation: Generation): Generation {
    if (this.lastGoodText === undefined) return generation;
    try {
      return this.read(this.lastGoodText, generation).generation;
    } catch (e) {
      if (!(e instanceof DisruptionFileError)) throw e;
      this.failed(e.message);
      return generation;
    }
  }

  /** The file's text against a generation's data, in one piece; throws DisruptionFileError when it is unusable. */
  private read(text: string, generation: Generation) {
    const parsed = parseDisruptionFile(text, this.config.path, generation.ref, generation.tt.timezone, this.limits);
    try {
      return this.applied(parsed, plannedRuns(generation.ref, parsed.disruptions, generation.productionStartDay, generation.productionEndDay, this.budget), generation);
    } catch (e) {
      throw this.refusal(e);
    }
  }

  private get budget() {
    return { maxRuns: DEFAULT_PLANNED_RUNS_BUDGET.maxRuns, maxSteps: this.limits.maxExpansionSteps };
  }

  /** A budget overrun while expanding the runs refuses the file like any other unusable file. */
  private refusal(e: unknown): unknown {
    return e instanceof PlannedRunsBudgetError ? new DisruptionFileError(`${this.config.path}: ${e.message}`) : e;
  }

  /** `generation` with the disruptions read from the file and the runs they change, and what to report. */
  private applied(parsed: ParsedDisruptions, planned: PlannedRuns, generation: Generation, built?: GenerationChanges['built']) {
    return {
      generation: withDisruptions(generation, parsed.disruptions, generation.disruptions.alerts, planned.runs, built),
      disruptions: parsed.disruptions.length,
      adaptedRuns: planned.runs.length,
      problems: [...parsed.problems, ...planned.problems],
    };
  }

  status(): DisruptionSourceStatus {
    return { ...this.state };
  }

  private failed(message: string, nowSec = Math.floor(Date.now() / 1000)): void {
    Object.assign(this.state, { last_error: message, last_error_at: nowSec, failures: this.state.failures + 1 });
    this.log.warn({ coverage: this.coverage.id, file: this.config.path }, `disruptions file not applied, the last good state stays: ${message}`);
  }
}
