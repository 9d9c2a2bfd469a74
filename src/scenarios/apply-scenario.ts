/**
 * A scenario applied to a timetable (docs/scenarios.md): its modifications in R5's order, each on
 * what the previous ones left, giving the trips the scenario masks and the trips it runs instead,
 * its new stops, lines and calendars. Every fault is collected (an unknown id, a hop no chosen trip
 * runs, a modification that changes nothing, a budget passed); a scenario with any is refused whole.
 */
import type { Timetable } from '../model/timetable.js';
import { inOnePiece } from '../util/stepwise.js';
import { MODIFICATION_ORDER, type Modification, type ScenarioError, type ScenarioFile, type StopSpec, type TimetableEntry, type TripChoice } from './scenario-file.js';
import { NOT_FOUND, ScenarioIds } from './scenario-ids.js';
import { SCENARIO_LIMITS, type ScenarioLimits } from './scenario-limits.js';
import { adjustDwells, removeStops, rerouteTimes, scaleSpeed, shiftedTo, timesFrom, type StopTimes } from './retime.js';
import { ScenarioTrips, type ScenarioTrip } from './scenario-trips.js';
import { ScenarioCalendars, type ProductionPeriod } from './scenario-calendars.js';

export interface NewStop {
  id: string;
  name: string;
  lon: number;
  lat: number;
}

export interface NewLine {
  id: string;
  name: string;
  /** GTFS route_type */
  mode: number;
  /** the modification that made it */
  modification: number;
}

/** What one modification did, for the scenario's summary. */
export interface ModificationSummary {
  index: number;
  type: Modification['type'];
  tripsRemoved: number;
  tripsChanged: number;
  tripsAdded: number;
  stopsAdded: number;
}

export interface AppliedScenario {
  /** per base trip: 1 when masked (removed, or replaced by a changed copy) */
  masked: Uint8Array;
  /** the trips the scenario runs beside the unmasked base trips */
  trips: ScenarioTrip[];
  newStops: NewStop[];
  newLines: NewLine[];
  /** bitsets of the new calendars, laid out as the timetable's services (`services.words` words each) */
  newServiceBits: Uint32Array;
  summary: ModificationSummary[];
  errors: ScenarioError[];
}

/** Apply `scenario` (named `name`) to `tt`, whose production period is `period`. */
export function applyScenario(tt: Timetable, period: ProductionPeriod, scenario: ScenarioFile, name: string, limits: ScenarioLimits = SCENARIO_LIMITS): AppliedScenario {
  return inOnePiece(applyScenarioSteps(tt, period, scenario, name, limits));
}

/** `applyScenario` a modification at a time (a server runs it in slices, answering requests between). */
export function* applyScenarioSteps(tt: Timetable, period: ProductionPeriod, scenario: ScenarioFile, name: string, limits: ScenarioLimits = SCENARIO_LIMITS): Generator<void, AppliedScenario> {
  const run = new Application(tt, period, name, limits);
  const ordered = [...scenario.modifications].sort((a, b) => MODIFICATION_ORDER.indexOf(a.type) - MODIFICATION_ORDER.indexOf(b.type) || a.index - b.index);
  run.collectEntries(ordered);
  for (const m of ordered) {
    if (run.overBudget()) break;
    yield* run.apply(m);
    yield;
  }
  return run.result();
}

/** Trips looked at between two yields of the work (a few milliseconds' worth). */
const TRIPS_PER_SLICE = 256;

/** Trips a modification chose: base trips by index, made trips by their index in `ScenarioTrips.made`. */
interface Chosen {
  base: number[];
  made: number[];
}

class Application {
  private readonly ids: ScenarioIds;
  private readonly trips: ScenarioTrips;
  private readonly calendars: ScenarioCalendars;
  private readonly errors: ScenarioError[] = [];
  private readonly summary: ModificationSummary[] = [];
  private readonly newStops: NewStop[] = [];
  private readonly newLines: NewLine[] = [];
  /** add-trips' entries by entryId, for phasing */
  private readonly entries = new Map<string, { entry: TimetableEntry; times: StopTimes; stops: number[] }>();
  private stopTimesMade = 0;
  /** trips looked at so far: the work yields every TRIPS_PER_SLICE */
  private tripsVisited = 0;
  private budgetPassed = false;
  private current: ModificationSummary = { index: 0, type: 'remove-trips', tripsRemoved: 0, tripsChanged: 0, tripsAdded: 0, stopsAdded: 0 };

  constructor(
    private readonly tt: Timetable,
    period: ProductionPeriod,
    private readonly name: string,
    private readonly limits: ScenarioLimits,
  ) {
    this.ids = new ScenarioIds(tt);
    this.trips = new ScenarioTrips(tt);
    this.calendars = new ScenarioCalendars(tt.services, period);
  }

  private fail(field: string, value: unknown, reason: string): void {
    this.errors.push({ modification: this.current.index, field, value, reason });
  }

  overBudget(): boolean {
    if (this.budgetPassed) return true;
    const changed = this.trips.copies.size + this.trips.made.length;
    if (changed > this.limits.maxTrips) return this.budgetError(`more than ${this.limits.maxTrips} trips added or changed`);
    if (this.stopTimesMade > this.limits.maxStopTimes) return this.budgetError(`more than ${this.limits.maxStopTimes} stop times added or changed`);
    if (this.newStops.length > this.limits.maxNewStops) return this.budgetError(`more than ${this.limits.maxNewStops} new stops`);
    return false;
  }

  private budgetError(reason: string): true {
    this.budgetPassed = true;
    this.errors.push({ modification: this.current.index, field: '', reason: `the scenario asks too much: ${reason}` });
    return true;
  }

  /** Phased entries name add-trips entries of the scenario by entryId: note them before applying. */
  collectEntries(ordered: Modification[]): void {
    for (const m of ordered) {
      if (m.type !== 'add-trips') continue;
      for (const entry of m.entries) {
        if (entry.entryId === null || !entry.hopTimes || !entry.dwellTimes) continue;
        const stops = m.stops.map((s) => ('id' in s ? this.ids.stop(s.id) : NOT_FOUND));
        this.entries.set(entry.entryId, { entry, times: timesFrom(0, entry.dwellTimes, entry.hopTimes), stops });
      }
    }
  }

  /** Apply one modification, yielding between slices of its trips. */
  *apply(m: Modification): Generator<void, void> {
    this.current = { index: m.index, type: m.type, tripsRemoved: 0, tripsChanged: 0, tripsAdded: 0, stopsAdded: 0 };
    this.summary.push(this.current);
    const before = this.errors.length;
    switch (m.type) {
      case 'remove-trips':
        yield* this.removeTrips(this.choose(m));
        break;
      case 'adjust-speed':
        yield* this.adjustSpeed(m);
        break;
      case 'adjust-dwell-time':
        yield* this.adjustDwellTime(m);
        break;
      case 'remove-stops':
        yield* this.removeStopsOf(m);
        break;
      case 'reroute':
        yield* this.reroute(m);
        break;
      case 'adjust-frequency':
        yield* this.adjustFrequency(m);
        break;
      case 'add-trips':
        yield* this.addTrips(m);
        break;
    }
    const c = this.current;
    if (this.errors.length === before && c.tripsRemoved + c.tripsChanged + c.tripsAdded === 0) this.fail('', null, 'this modification changes no trip');
  }

  result(): AppliedScenario {
    this.overBudget();
    return {
      masked: this.trips.masked,
      trips: this.trips.changedTrips(),
      newStops: this.newStops,
      newLines: this.newLines,
      newServiceBits: this.calendars.bits(),
      summary: this.summary,
      errors: this.errors,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Choosing trips

  private choose(c: TripChoice): Chosen {
    const chosen: Chosen = { base: [], made: [] };
    if (c.routes) {
      const lines = new Set<number>();
      for (const id of c.routes) {
        const l = this.ids.line(id);
        if (l === NOT_FOUND) this.fail('routes', id, 'no route of the coverage has this id');
        else lines.add(l);
      }
      for (const l of lines) for (const t of this.trips.baseTripsOf(l)) if (this.trips.runs(t)) chosen.base.push(t);
      this.trips.made.forEach((trip, i) => trip && lines.has(trip.line) && chosen.made.push(i));
    } else if (c.trips) {
      for (const id of c.trips) {
        const t = this.ids.trip(id);
        if (t === NOT_FOUND) this.fail('trips', id, 'no trip of the coverage has this id');
        else if (this.trips.runs(t)) chosen.base.push(t);
      }
    } else if (c.patterns) {
      for (const id of c.patterns) {
        const t = this.ids.trip(id);
        if (t === NOT_FOUND) this.fail('patterns', id, 'no trip of the coverage has this id');
        else this.addPattern(t, chosen);
      }
      chosen.base = [...new Set(chosen.base)].sort((a, b) => a - b);
    }
    return chosen;
  }

  /** The running trips of example trip t's line with its stops now. */
  private addPattern(example: number, chosen: Chosen): void {
    const key = stopsKey(this.trips.stopsOf(example));
    const line = this.tt.trips.line[example]!;
    for (const t of this.trips.baseTripsOf(line)) if (this.trips.runs(t) && stopsKey(this.trips.stopsOf(t)) === key) chosen.base.push(t);
  }

  /** Every chosen trip, copied out for a change; `change` returns false when it leaves the trip alone. */
  private *changeEach(chosen: Chosen, change: (trip: ScenarioTrip) => 'changed' | 'removed' | 'same'): Generator<void, void> {
    const visit = (trip: ScenarioTrip, remove: () => void) => {
      const outcome = change(trip);
      if (outcome === 'removed') {
        remove();
        this.current.tripsRemoved++;
      } else if (outcome === 'changed') {
        this.current.tripsChanged++;
        this.stopTimesMade += trip.stops.length * trip.shifts.length;
      }
    };
    for (const t of chosen.base) {
      const copied = this.trips.copies.has(t);
      const trip = this.trips.copy(t);
      const saved = copied ? null : { ...trip };
      visit(trip, () => this.trips.remove(t));
      // a trip left as it was goes back to the base timetable
      if (saved && this.trips.copies.get(t) === trip && sameTimes(saved, trip)) {
        this.trips.copies.delete(t);
        this.trips.masked[t] = 0;
      }
      if (++this.tripsVisited % TRIPS_PER_SLICE === 0) yield;
    }
    for (const i of chosen.made) visit(this.trips.made[i]!, () => (this.trips.made[i] = null));
  }

  // -------------------------------------------------------------------------------------------
  // The modifications

  private *removeTrips(chosen: Chosen): Generator<void, void> {
    for (const t of chosen.base) {
      this.trips.remove(t);
      this.current.tripsRemoved++;
      if (++this.tripsVisited % TRIPS_PER_SLICE === 0) yield;
    }
    for (const i of chosen.made) {
      this.trips.made[i] = null;
      this.current.tripsRemoved++;
    }
  }

  private *adjustSpeed(m: Extract<Modification, { type: 'adjust-speed' }>): Generator<void, void> {
    const chosen = this.choose(m);
    let hops: Set<string> | null = null;
    if (m.hops) {
      hops = new Set();
      for (const [from, to] of m.hops) {
        const a = this.ids.stop(from);
        const b = this.ids.stop(to);
        if (a === NOT_FOUND) this.fail('hops', from, 'no stop point of the coverage has this id');
        if (b === NOT_FOUND) this.fail('hops', to, 'no stop point of the coverage has this id');
        hops.add(`${a}>${b}`);
      }
    }
    const seen = new Set<string>();
    yield* this.changeEach(chosen, (trip) => {
      let any = hops === null;
      const chosenHop = (s: number) => {
        if (hops === null) return true;
        const key = `${trip.stops[s]}>${trip.stops[s + 1]}`;
        const yes = hops.has(key);
        if (yes) {
          seen.add(key);
          any = true;
        }
        return yes;
      };
      Object.assign(trip, scaleSpeed(trip, m.scale, chosenHop, m.scaleDwells));
      return any ? 'changed' : 'same';
    });
    if (hops) for (const key of hops) if (!seen.has(key) && !key.includes('-1')) this.fail('hops', key.split('>').map((s) => this.tt.stopPoints.ids[+s]), 'no chosen trip runs this hop');
  }

  private *adjustDwellTime(m: Extract<Modification, { type: 'adjust-dwell-time' }>): Generator<void, void> {
    // no stops named (or an empty list): every stop
    const stops = m.stops && m.stops.length > 0 ? this.stopSet(m.stops, 'stops') : null;
    yield* this.changeEach(this.choose(m), (trip) => {
      Object.assign(trip, adjustDwells(trip, (s) => stops === null || stops.has(trip.stops[s]!), m.dwellSecs, m.scale));
      return 'changed';
    });
  }

  private *removeStopsOf(m: Extract<Modification, { type: 'remove-stops' }>): Generator<void, void> {
    const stops = this.stopSet(m.stops, 'stops');
    yield* this.changeEach(this.choose(m), (trip) => {
      if (!trip.stops.some((p) => stops.has(p))) return 'same';
      const { kept, times } = removeStops(trip, (s) => stops.has(trip.stops[s]!), m.secondsSavedAtEachStop);
      if (kept.length < 2) return 'removed';
      trip.stops = kept.map((s) => trip.stops[s]!);
      trip.pickDrop = kept.map((s) => trip.pickDrop[s]!);
      Object.assign(trip, times);
      return 'changed';
    });
  }

  private *reroute(m: Extract<Modification, { type: 'reroute' }>): Generator<void, void> {
    const from = m.fromStop === null ? null : this.stopOf(m.fromStop, 'fromStop');
    const to = m.toStop === null ? null : this.stopOf(m.toStop, 'toStop');
    const inserted = this.stopsOf(m.stops, 'stops');
    if (from === NOT_FOUND || to === NOT_FOUND || inserted.includes(NOT_FOUND)) return;
    let matched = 0;
    let unmatched = 0;
    let negative = false;
    yield* this.changeEach(this.choose(m), (trip) => {
      const fromPos = from === null ? -1 : trip.stops.indexOf(from);
      const toPos = to === null ? trip.stops.length : trip.stops.indexOf(to, Math.max(0, fromPos + 1));
      if ((from !== null && fromPos < 0) || toPos < 0) {
        unmatched++;
        return 'same';
      }
      matched++;
      const begin = fromPos + 1;
      const times = rerouteTimes(trip, begin, toPos, inserted.length, from !== null, to !== null, m.dwellTimes, m.hopTimes);
      if (times.arrival[0]! < 0) {
        negative = true;
        return 'same';
      }
      const tail = to === null ? trip.stops.length : toPos;
      trip.stops = [...trip.stops.slice(0, begin), ...inserted, ...trip.stops.slice(tail)];
      trip.pickDrop = [...trip.pickDrop.slice(0, begin), ...inserted.map(() => 0), ...trip.pickDrop.slice(tail)];
      Object.assign(trip, times);
      return 'changed';
    });
    if (negative) this.fail('hopTimes', m.hopTimes, 'timed backwards from toStop, a trip would start before the service day');
    if (matched === 0 || (m.patterns !== null && unmatched > 0)) this.fail(m.fromStop !== null ? 'fromStop' : 'toStop', m.fromStop ?? m.toStop, 'a chosen pattern does not visit this stop (and toStop after fromStop)');
  }

  private *adjustFrequency(m: Extract<Modification, { type: 'adjust-frequency' }>): Generator<void, void> {
    const line = this.ids.line(m.route);
    if (line === NOT_FOUND) return this.fail('route', m.route, 'no route of the coverage has this id');
    const routeTrips = this.trips.baseTripsOf(line).filter((t) => this.trips.runs(t));
    const sources = m.entries.map((e, k) => {
      const t = this.ids.trip(e.sourceTrip ?? '');
      if (t === NOT_FOUND || this.tt.trips.line[t] !== line) this.fail(`entries[${k}].sourceTrip`, e.sourceTrip, 'no trip of this route has this id');
      return t;
    });
    if (sources.includes(NOT_FOUND)) return;
    // the entries' patterns and times (from their source trips as the earlier modifications left them), for phasing
    m.entries.forEach((entry, k) => {
      const source = this.trips.copies.get(sources[k]!) ?? (this.trips.runs(sources[k]!) ? this.trips.copy(sources[k]!) : null);
      if (entry.entryId !== null && source) this.entries.set(entry.entryId, { entry, times: shiftedTo(source, 0), stops: source.stops });
    });
    // the entries' trips, from the source trips as they are now
    const made: ScenarioTrip[] = [];
    m.entries.forEach((entry, k) => {
      const known = this.trips.copies.get(sources[k]!);
      if (known === null) return this.fail(`entries[${k}].sourceTrip`, entry.sourceTrip, 'an earlier modification removed this trip');
      const source = known ?? this.trips.copy(sources[k]!);
      const service = this.calendars.weekdays(entry.days);
      this.startsOf(entry).forEach((start, j) => {
        made.push({ ...source, ...shiftedTo(source, start), id: `scenario:${this.name}:${m.index}:${k}:${j}`, service, shifts: [0], stops: [...source.stops], pickDrop: [...source.pickDrop] });
      });
    });
    for (const t of routeTrips) {
      const retained = m.retainTripsOutsideFrequencyEntries ? this.retainedService(t, m.entries) : null;
      if (retained === null) {
        this.trips.remove(t);
        this.current.tripsRemoved++;
      } else if (retained !== this.tt.trips.service[t]) {
        this.trips.copy(t).service = retained;
        this.current.tripsChanged++;
      }
    }
    yield* this.addMade(made);
  }

  /** The days base trip t keeps beside frequency entries: its service less their weekdays when it starts in one (null: none left). */
  private retainedService(t: number, entries: TimetableEntry[]): number | null {
    const trip = this.trips.copies.get(t) ?? null;
    const firstDeparture = trip ? trip.departure[0]! + trip.shifts[0]! : this.tt.stopTimes.departureSec[this.tt.trips.stopTimeOffset[t]!]!;
    const blackout = [false, false, false, false, false, false, false];
    for (const e of entries) {
      if (e.firstDepartures !== null || firstDeparture < e.startTime || firstDeparture >= e.endTime) continue;
      e.days.forEach((on, d) => on && (blackout[d] = true));
    }
    const service = trip ? trip.service : this.tt.trips.service[t]!;
    if (!blackout.some(Boolean)) return service;
    return this.calendars.without(service, blackout);
  }

  private *addTrips(m: Extract<Modification, { type: 'add-trips' }>): Generator<void, void> {
    const stops = this.stopsOf(m.stops, 'stops');
    if (stops.includes(NOT_FOUND)) return;
    const line = this.tt.lines.length + this.newLines.length;
    this.newLines.push({ id: `scenario:${this.name}:${m.index}`, name: m.label ?? `${this.name} ${m.index}`, mode: m.mode, modification: m.index });
    const timezone = this.tt.agencyTimezone[0] ?? 0;
    const made: ScenarioTrip[] = [];
    const directions = m.bidirectional ? [m.directionId, 1 - m.directionId] : [m.directionId];
    directions.forEach((direction, d) => {
      const reverse = d === 1;
      const order = reverse ? [...stops].reverse() : stops;
      m.entries.forEach((entry, k) => {
        if (!entry.hopTimes || !entry.dwellTimes) return;
        const hops = reverse ? [...entry.hopTimes].reverse() : entry.hopTimes;
        const dwells = reverse ? [...entry.dwellTimes].reverse() : entry.dwellTimes;
        const service = this.calendars.weekdays(entry.days);
        this.startsOf(entry).forEach((start, j) => {
          made.push({ id: `scenario:${this.name}:${m.index}:${direction}:${k}:${j}`, source: -1, line, timezone, stops: [...order], pickDrop: order.map(() => 0), ...timesFrom(start, dwells, hops), service, shifts: [0] });
        });
      });
    });
    yield* this.addMade(made);
  }

  private *addMade(made: ScenarioTrip[]): Generator<void, void> {
    for (const trip of made) {
      this.trips.made.push(trip);
      this.stopTimesMade += trip.stops.length;
      if (++this.tripsVisited % TRIPS_PER_SLICE === 0) yield;
    }
    this.current.tripsAdded += made.length;
  }

  // -------------------------------------------------------------------------------------------
  // Timetable entries and stops

  /** An entry's start times (docs/scenarios.md, "Timetable entries"). */
  private startsOf(entry: TimetableEntry): number[] {
    if (entry.firstDepartures !== null) return [...entry.firstDepartures].sort((a, b) => a - b);
    let first = entry.startTime;
    if (entry.phase) {
      const anchor = this.phaseAnchor(entry);
      if (anchor === null) return [];
      const h = entry.headwaySecs;
      first = entry.startTime + ((((anchor - entry.startTime) % h) + h) % h);
    }
    const starts: number[] = [];
    for (let t = first; t < entry.endTime; t += entry.headwaySecs) {
      starts.push(t);
      if (starts.length > this.limits.maxTrips) break;
    }
    return starts;
  }

  /** A phased entry's anchor: the other entry's first start and time to phaseFromStop, plus phaseSeconds, less this entry's time to phaseAtStop. */
  private phaseAnchor(entry: TimetableEntry): number | null {
    const phase = entry.phase!;
    const other = this.entries.get(phase.fromTimetable);
    const own = entry.entryId === null ? undefined : this.entries.get(entry.entryId);
    if (!other || other.entry.firstDepartures !== null || other.entry.phase !== null) {
      this.fail('phaseFromTimetable', phase.fromTimetable, 'no unphased frequency entry of the scenario has this entryId');
      return null;
    }
    if (other.entry.headwaySecs !== entry.headwaySecs) this.fail('phaseFromTimetable', phase.fromTimetable, 'a phased entry has the headway of the entry it is phased from');
    const fromPos = other.stops.indexOf(this.ids.stop(phase.fromStop));
    if (fromPos < 0) this.fail('phaseFromStop', phase.fromStop, 'the entry phased from does not stop there');
    const atPos = own ? own.stops.indexOf(this.ids.stop(phase.atStop)) : -1;
    if (atPos < 0) this.fail('phaseAtStop', phase.atStop, 'this entry (with an entryId) does not stop there');
    if (fromPos < 0 || atPos < 0) return null;
    return other.entry.startTime + other.times.arrival[fromPos]! + phase.seconds - own!.times.arrival[atPos]!;
  }

  private stopOf(id: string, field: string): number {
    const p = this.ids.stop(id);
    if (p === NOT_FOUND) this.fail(field, id, 'no stop point of the coverage has this id');
    return p;
  }

  private stopSet(ids: string[], field: string): Set<number> {
    return new Set(ids.map((id) => this.stopOf(id, field)).filter((p) => p !== NOT_FOUND));
  }

  /** Stop specs as stop points: existing ones found, new ones made (numbered after the timetable's). */
  private stopsOf(specs: StopSpec[], field: string): number[] {
    return specs.map((spec, k) => {
      if ('id' in spec) return this.stopOf(spec.id, `${field}[${k}].id`);
      const id = `scenario:${this.name}:${this.current.index}:${k}`;
      this.newStops.push({ id, name: spec.name ?? id, lon: spec.lon, lat: spec.lat });
      this.current.stopsAdded++;
      return this.tt.stopPoints.ids.length + this.newStops.length - 1;
    });
  }
}

function stopsKey(stops: ArrayLike<number>): string {
  return Array.prototype.join.call(stops, ',');
}

function sameTimes(a: ScenarioTrip, b: ScenarioTrip): boolean {
  const same = (x: number[], y: number[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return same(a.stops, b.stops) && same(a.arrival, b.arrival) && same(a.departure, b.departure) && a.service === b.service;
}
