/**
 * The realtime sources of a coverage, polled at their intervals. Each good message replaces its
 * source's previous one; the runs of all current messages are then read against the coverage's
 * timetable and a new generation is swapped in whole (requests under way keep theirs). A source
 * that fails is logged and counted, and its last good message stays in force.
 */
import type { Timetable } from '../model/timetable.js';
import type { FeedSource } from '../live/realtime/feed-source.js';
import { decodeFeedMessage, type FeedMessage, type VehiclePosition } from '../live/realtime/gtfs-rt.js';
import { readTripUpdates, readTripUpdatesInSlices, type RealtimeRuns } from '../live/realtime/trip-updates.js';
import { coverageLanguage, readAlerts, type AlertDisruptions } from '../live/disruptions/alerts.js';
import type { Disruption } from '../live/disruptions/disruption.js';
import type { LiveTarget } from './live-target.js';
import { withChanges, type Generation } from './generation.js';

/** A message's positions by trip_id (a position without a trip is ignored; one without a time takes the message's). */
function positionsOf(message: FeedMessage): Map<string, VehiclePosition> {
  const positions = new Map<string, VehiclePosition>();
  for (const entity of message.entities) {
    const position = entity.vehicle;
    const tripId = position?.trip?.tripId;
    if (!position || tripId === undefined || entity.isDeleted) continue;
    const at = position.timestamp ?? message.header.timestamp;
    const kept = positions.get(tripId);
    if (kept && (kept.timestamp ?? 0) > (at ?? 0)) continue;
    positions.set(tripId, at === position.timestamp ? position : { ...position, timestamp: at });
  }
  return positions;
}

export interface UpdaterLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * A source's current message as it is kept: its bytes, not the decoded objects (ten times larger
 * and more), since its runs and alerts are read once per timetable; a reloaded timetable decodes
 * the bytes again.
 */
interface CurrentMessage {
  bytes: Uint8Array;
  /** tells the messages apart (a new number for each message decoded) */
  serial: number;
  /** whether it carries trip updates or alerts */
  hasUpdates: boolean;
}

export class RealtimeUpdater {
  private readonly latest = new Map<FeedSource, CurrentMessage>();
  private serial = 0;
  /** each source's vehicle positions by trip_id, from its last good message only (kept for the endpoints to come) */
  private readonly positions = new Map<FeedSource, Map<string, VehiclePosition>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly busy = new Set<FeedSource>();
  /** each source's runs and ServiceAlerts (as disruptions), read once per message and timetable */
  private readonly readOf = new Map<FeedSource, { serial: number; tt: Timetable; runs: RealtimeRuns; alerts: AlertDisruptions }>();
  /** told the duration of each apply, in seconds (metrics) */
  onApplied: ((seconds: number) => void) | undefined;

  constructor(
    readonly coverage: LiveTarget,
    readonly sources: FeedSource[],
    private readonly log: UpdaterLog,
  ) {}

  /** Poll every source now, then at its interval. */
  start(): void {
    for (const source of this.sources) {
      void this.poll(source);
      const timer = setInterval(() => void this.poll(source), source.intervalSec * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }

  /** Read one source and, when it gives a good message, apply every source's current message. */
  async poll(source: FeedSource): Promise<boolean> {
    if (this.busy.has(source)) return false; // the previous read is still under way
    this.busy.add(source);
    let read;
    try {
      read = await source.read();
    } catch (e) {
      this.log.warn({ coverage: this.coverage.id, source: source.config.url }, `realtime source failed, the last good state stays: ${(e as Error).message}`);
      return false;
    } finally {
      this.busy.delete(source);
    }
    if (read === 'unchanged') return true; // the same bytes: the same runs, positions and alerts
    const { message, bytes } = read;
    const current: CurrentMessage = { bytes, serial: ++this.serial, hasUpdates: message.entities.some((e) => e.tripUpdate || e.alert) };
    // a feed of positions only leaves the timetable alone; one that stops updating trips (or alerting) clears them
    const changesRuns = current.hasUpdates || (this.latest.get(source)?.hasUpdates ?? false);
    this.latest.set(source, current);
    this.positions.set(source, positionsOf(message));
    if (changesRuns) {
      await this.readAhead(source, current, message);
      this.apply();
    }
    return true;
  }

  /**
   * Read `message` against the generation in force a slice at a time, so that `apply` finds it
   * read and only swaps (a feed updating every run of a day would hold the event loop for tens of
   * milliseconds in one piece). A generation swapped in meanwhile is read again by `apply`.
   */
  private async readAhead(source: FeedSource, current: CurrentMessage, message: FeedMessage): Promise<void> {
    const generation = this.coverage.generation;
    if (!generation) return;
    const runs = await readTripUpdatesInSlices(generation.ref, message);
    if (this.latest.get(source) !== current) return; // a newer message came meanwhile
    this.readOf.set(source, { serial: current.serial, tt: generation.tt, runs, alerts: readAlerts(message, generation.ref, coverageLanguage(generation.tt)) });
  }

  /**
   * The position of each trip's vehicle in the sources' current messages (the latest when several
   * sources give one): what a source says replaces what it said before, so a trip that no current
   * message carries has none, and memory follows the current messages only.
   */
  get vehicles(): Map<string, VehiclePosition> {
    if (this.positions.size === 1) return this.positions.values().next().value!;
    const merged = new Map<string, VehiclePosition>();
    for (const positions of this.positions.values()) {
      for (const [tripId, position] of positions) {
        const kept = merged.get(tripId);
        if (!kept || (kept.timestamp ?? 0) < (position.timestamp ?? 0)) merged.set(tripId, position);
      }
    }
    return merged;
  }

  /** Whether some source has given a message yet (LiveSource). */
  get hasState(): boolean {
    return this.latest.size > 0;
  }

  /** The runs of all current messages, as a new generation of the coverage. */
  apply(): void {
    const generation = this.coverage.generation;
    if (!generation) return;
    const started = performance.now();
    this.coverage.swap(this.applyTo(generation));
    this.onApplied?.((performance.now() - started) / 1000);
  }

  /** `generation` with the runs and alerts of all current messages (a newly loaded one gets them before it is installed). */
  applyTo(generation: Generation): Generation {
    const merged: RealtimeRuns = { runs: new Map(), added: [], problems: [] };
    const alerts: Disruption[] = [];
    let alertProblems = 0;
    for (const source of this.sources) {
      const current = this.latest.get(source);
      if (!current) continue;
      let read = this.readOf.get(source);
      if (read?.serial !== current.serial || read.tt !== generation.tt) {
        // another timetable (a reload): the message is decoded again from its bytes, in one piece
        const message = decodeFeedMessage(current.bytes);
        read = {
          serial: current.serial,
          tt: generation.tt,
          runs: readTripUpdates(generation.ref, message),
          alerts: readAlerts(message, generation.ref, coverageLanguage(generation.tt)),
        };
        this.readOf.set(source, read);
      }
      alerts.push(...read.alerts.disruptions);
      alertProblems += read.alerts.problems.length;
      const { runs } = read;
      for (const [key, run] of runs.runs) merged.runs.set(key, run);
      merged.added.push(...runs.added);
      merged.problems.push(...runs.problems);
    }
    // ServiceAlerts are disruptions (listed, tagged); they do not change the adapted level
    const alertsChanged = alerts.length > 0 || generation.disruptions.alerts.length > 0;
    this.log.info(
      { coverage: this.coverage.id, runs: merged.runs.size, added: merged.added.length, problems: merged.problems.length, alerts: alerts.length, alertProblems },
      `realtime applied: ${merged.runs.size} runs changed, ${merged.added.length} added, ${merged.problems.length} updates skipped, ${alerts.length} alerts`,
    );
    return withChanges(generation, { realtime: merged, alerts: alertsChanged ? alerts : undefined });
  }

  status() {
    return this.sources.map((s) => s.status());
  }
}
