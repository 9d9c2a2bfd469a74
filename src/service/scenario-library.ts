/**
 * A coverage's scenarios (docs/scenarios.md): each a file its configuration names, read at start and
 * again whenever it changes (its stamp, checked at an interval, as the disruptions file is), and
 * applied to the coverage's timetable once per file version and timetable, a modification at a time
 * between turns of the event loop. Requests then read the applied scenario as it stands: applying
 * never happens on a request's path.
 *
 * A version that cannot be used (not JSON, a fault in a modification, an id the coverage does not
 * know, a budget passed) is refused with every fault named; the last good version, if any, stays in
 * service. A new timetable (a reload) gets the last good versions applied again, and while that runs
 * the scenario is `preparing`.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Timetable } from '../model/timetable.js';
import { readScenarioFile, type ScenarioError } from '../scenarios/scenario-file.js';
import { SCENARIO_LIMITS } from '../scenarios/scenario-limits.js';
import { inSlices } from '../util/stepwise.js';
import { typedArrayBytes } from '../util/typed-array-bytes.js';
import { compileSteps } from './scenario-compile.js';
import type { ScenarioSourceConfig } from './coverage-config.js';
import type { Coverage } from './coverage-registry.js';
import type { Generation } from './generation.js';
import type { UpdaterLog } from './realtime-updater.js';
import { fileStamp } from './source-files.js';
import type { AppliedVersion, ScenarioLookup, ScenarioReport, Scenarios, ScenarioStatus } from './scenario-lookup.js';

interface Source {
  config: ScenarioSourceConfig;
  stamp: string | undefined;
  /** the text of the last good version, applied again to each new timetable */
  goodText: string | null;
  applied: AppliedVersion | null;
  errors: ScenarioError[];
  lastLoadAt: number | null;
  loads: number;
  failures: number;
  /** a read or an application under way */
  busy: Promise<void> | null;
  /** the timetable the last good version could not be applied to (a reload that dropped an id it names) */
  refusedFor: Timetable | null;
}

/** Seconds between two checks of the files. */
export const SCENARIO_CHECK_INTERVAL_SEC = 5;

export class ScenarioLibrary implements Scenarios {
  private readonly sources: Source[];
  private timer: NodeJS.Timeout | undefined;
  /** bumped at each change of any scenario's state: answers that read a scenario are cached under it */
  version = 0;

  constructor(
    private readonly coverage: { readonly id: string; readonly generation: Generation | undefined },
    configs: readonly ScenarioSourceConfig[],
    private readonly log: UpdaterLog,
  ) {
    this.sources = configs.map((config) => ({ config, stamp: undefined, goodText: null, applied: null, errors: [], lastLoadAt: null, loads: 0, failures: 0, busy: null, refusedFor: null }));
  }

  /** Read every file now, then check them at the interval. */
  start(intervalSec = SCENARIO_CHECK_INTERVAL_SEC): Promise<void> {
    const first = this.check();
    this.timer = setInterval(() => void this.check(), intervalSec * 1000);
    this.timer.unref();
    return first;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Read the files that changed, and apply the good versions to the current timetable when they are not yet. */
  async check(): Promise<void> {
    await Promise.all(this.sources.map((s) => this.checkOne(s)));
  }

  /** The scenario `name` as requests on `generation` may use it. */
  lookup(name: string, generation: { tt: Timetable }): ScenarioLookup {
    const source = this.sources.find((s) => s.config.name === name);
    if (!source) return { kind: 'unknown', known: this.names() };
    const applied = source.applied;
    const status = statusOf(source, generation);
    if (status === 'ok') return { kind: 'ok', applied: applied! };
    return status === 'preparing' ? { kind: 'preparing' } : { kind: 'refused', errors: source.errors };
  }

  bytes(): number {
    let bytes = 0;
    for (const s of this.sources) if (s.applied) bytes += typedArrayBytes(s.applied.overlay, undefined, true);
    return bytes;
  }

  names(): string[] {
    return this.sources.map((s) => s.config.name);
  }

  /** Every scenario's state, for `/scenarios` and the coverage's status. */
  reports(generation: { tt: Timetable }): ScenarioReport[] {
    return this.sources.map((s) => {
      const status = statusOf(s, generation);
      const applied = status === 'ok' ? s.applied : null;
      return { name: s.config.name, file: s.config.path, status, errors: s.errors, applied, lastLoadAt: s.lastLoadAt, loads: s.loads, failures: s.failures };
    });
  }

  private async checkOne(source: Source): Promise<void> {
    if (source.busy) return source.busy;
    const generation = this.coverage.generation;
    const stamp = fileStamp(source.config.path) ?? 'missing';
    const changed = stamp !== source.stamp;
    // a new timetable: the last good version applied to it, once
    const stale = source.goodText !== null && generation !== undefined && source.applied?.tt !== generation.tt && source.refusedFor !== generation.tt;
    if (!changed && !stale) return;
    source.busy = (async () => {
      try {
        if (changed) {
          source.stamp = stamp;
          await this.read(source);
        } else if (generation) {
          await this.apply(source, source.goodText!, generation, false);
        }
      } catch (e) {
        this.refuse(source, [{ modification: null, field: '', reason: (e as Error).message }]);
      } finally {
        source.busy = null;
      }
    })();
    return source.busy;
  }

  private async read(source: Source): Promise<void> {
    const { path } = source.config;
    let text: string;
    try {
      const size = (await stat(path)).size;
      if (size > SCENARIO_LIMITS.maxFileBytes) return this.refuse(source, [{ modification: null, field: '', reason: `the file is larger than ${SCENARIO_LIMITS.maxFileBytes} bytes` }]);
      text = await readFile(path, 'utf8');
    } catch (e) {
      return this.refuse(source, [{ modification: null, field: '', reason: `cannot read the file: ${(e as Error).message}` }]);
    }
    const generation = this.coverage.generation;
    if (!generation) {
      // no timetable yet: read again once there is one
      source.stamp = undefined;
      return;
    }
    await this.apply(source, text, generation, true);
  }

  /** Apply a version's text to a generation's timetable; a good one is put in service. */
  private async apply(source: Source, text: string, generation: Generation, newVersion: boolean): Promise<void> {
    const { name } = source.config;
    const read = readScenarioFile(text);
    if (read.errors.length > 0) return this.refuse(source, read.errors);
    const compiled = await inSlices(compileSteps(generation, name, read.scenario));
    if (!('overlay' in compiled)) {
      // the version in service, if any, stays for its own timetable; on this one the scenario is refused
      if (source.applied?.tt !== generation.tt) source.refusedFor = generation.tt;
      return this.refuse(source, compiled.errors);
    }
    source.applied = compiled;
    source.refusedFor = null;
    source.goodText = text;
    source.errors = [];
    source.lastLoadAt = Math.floor(Date.now() / 1000);
    source.loads++;
    this.version++;
    const verb = newVersion ? 'read' : 'applied to the new timetable';
    this.log.info({ coverage: this.coverage.id, scenario: name, trips: compiled.trips, masked: compiled.masked }, `scenario ${name} ${verb}: ${compiled.trips} trips added or changed, ${compiled.masked} timetable trips replaced or removed`);
  }

  private refuse(source: Source, errors: ScenarioError[]): void {
    source.errors = errors;
    source.failures++;
    this.version++;
    const kept = source.applied ? ', the last good version stays in service' : '';
    const first = errors[0]!;
    const where = first.modification === null ? '' : ` modifications[${first.modification}]${first.field ? `.${first.field}` : ''}:`;
    this.log.warn({ coverage: this.coverage.id, scenario: source.config.name, errors: errors.length }, `scenario ${source.config.name} refused (${source.config.path}:${where} ${first.reason}${errors.length > 1 ? ` and ${errors.length - 1} more` : ''})${kept}`);
  }
}

/**
 * Give a loaded coverage its scenarios: the generation in force and each one after it see them, and
 * a new timetable gets them applied again. Resolves once the files have been read a first time.
 */
export function startScenarios(coverage: Coverage, configs: readonly ScenarioSourceConfig[], log: UpdaterLog, intervalSec = SCENARIO_CHECK_INTERVAL_SEC): Promise<void> {
  const library = new ScenarioLibrary(coverage, configs, log);
  coverage.scenarios = library;
  if (coverage.generation) coverage.swap({ ...coverage.generation, scenarios: library });
  coverage.onSwap(() => void library.check());
  return library.start(intervalSec);
}

/** A scenario's state on a generation: in service on its timetable, being applied to it, or refused there. */
function statusOf(source: Source, generation: { tt: Timetable }): ScenarioStatus {
  if (source.applied?.tt === generation.tt) return 'ok';
  if (source.refusedFor === generation.tt) return 'refused';
  return source.goodText !== null || source.busy ? 'preparing' : 'refused';
}
