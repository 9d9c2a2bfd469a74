/**
 * A scenario file in R5's scenario JSON (docs/scenarios.md): read into typed modifications, every
 * fault named by modification index, field and value. Only the file's own shape is checked here
 * (types, lengths, ranges, unknown fields); whether its ids name something of the coverage is
 * scenario-ids.ts's business.
 */
import { SCENARIO_LIMITS, type ScenarioLimits } from './scenario-limits.js';

/** One fault of a scenario: where (modification index, null for the file itself, and field), the value and why. */
export interface ScenarioError {
  modification: number | null;
  field: string;
  value?: unknown;
  reason: string;
}

/** An existing stop point, or a new one at a place. */
export type StopSpec = { id: string } | { lat: number; lon: number; name: string | null };

/** The weekdays of an entry, Monday first. */
export type Weekdays = readonly boolean[];

/** A timetable entry: its start times (a frequency or a list), its days, and the hop and dwell times of add-trips. */
export interface TimetableEntry {
  startTime: number;
  endTime: number;
  headwaySecs: number;
  /** the start times of a scheduled entry (null: a frequency entry) */
  firstDepartures: number[] | null;
  days: Weekdays;
  hopTimes: number[] | null;
  dwellTimes: number[] | null;
  /** adjust-frequency: the trip whose stops and times the entry runs */
  sourceTrip: string | null;
  entryId: string | null;
  phase: { fromTimetable: string; atStop: string; fromStop: string; seconds: number } | null;
}

/** Which trips a modification changes: exactly one of routes, patterns (example trips) or trips. */
export interface TripChoice {
  routes: string[] | null;
  patterns: string[] | null;
  trips: string[] | null;
}

export type Modification =
  | { type: 'add-trips'; index: number; label: string | null; stops: StopSpec[]; entries: TimetableEntry[]; mode: number; bidirectional: boolean; directionId: number }
  | ({ type: 'remove-trips'; index: number } & TripChoice)
  | ({ type: 'adjust-speed'; index: number; scale: number; hops: [string, string][] | null; scaleDwells: boolean } & TripChoice)
  | ({ type: 'adjust-dwell-time'; index: number; stops: string[] | null; dwellSecs: number | null; scale: number | null } & TripChoice)
  | ({ type: 'remove-stops'; index: number; stops: string[]; secondsSavedAtEachStop: number } & TripChoice)
  | ({ type: 'reroute'; index: number; fromStop: string | null; toStop: string | null; stops: StopSpec[]; dwellTimes: number[]; hopTimes: number[] } & TripChoice)
  | { type: 'adjust-frequency'; index: number; route: string; entries: TimetableEntry[]; retainTripsOutsideFrequencyEntries: boolean };

export type ModificationType = Modification['type'];

/** The order R5 applies modifications in, whatever the file's (docs/scenarios.md). */
export const MODIFICATION_ORDER: readonly ModificationType[] = ['adjust-speed', 'adjust-dwell-time', 'remove-stops', 'reroute', 'adjust-frequency', 'remove-trips', 'add-trips'];

export interface ScenarioFile {
  name: string | null;
  description: string | null;
  modifications: Modification[];
}

export interface ReadScenario {
  scenario: ScenarioFile;
  errors: ScenarioError[];
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** Fields of R5's that carry no meaning here, kept for display or ignored. */
const BOOKKEEPING = ['comment', 'id', 'color', 'description', 'name'];
const CHOICE = ['routes', 'patterns', 'trips'];
const ENTRY_FIELDS = ['startTime', 'endTime', 'headwaySecs', 'firstDepartures', ...WEEKDAYS, 'hopTimes', 'dwellTimes', 'sourceTrip', 'entryId', 'phaseFromTimetable', 'phaseAtStop', 'phaseFromStop', 'phaseSeconds', 'id'];
const FIELDS: Record<ModificationType, string[]> = {
  'add-trips': ['stops', 'frequencies', 'mode', 'bidirectional', 'directionId'],
  'remove-trips': CHOICE,
  'adjust-speed': [...CHOICE, 'scale', 'hops', 'scaleDwells', 'referenceStops'],
  'adjust-dwell-time': [...CHOICE, 'stops', 'dwellSecs', 'scale'],
  'remove-stops': ['routes', 'patterns', 'stops', 'secondsSavedAtEachStop'],
  reroute: ['routes', 'patterns', 'fromStop', 'toStop', 'stops', 'dwellTimes', 'hopTimes'],
  'adjust-frequency': ['route', 'entries', 'retainTripsOutsideFrequencyEntries'],
};

/** The scenario of a file's text; `errors` empty when it can be applied (its ids still to be found). */
export function readScenarioFile(text: string, limits: ScenarioLimits = SCENARIO_LIMITS): ReadScenario {
  const errors: ScenarioError[] = [];
  const empty: ScenarioFile = { name: null, description: null, modifications: [] };
  if (Buffer.byteLength(text) > limits.maxFileBytes) {
    errors.push({ modification: null, field: '', reason: `the file is larger than ${limits.maxFileBytes} bytes` });
    return { scenario: empty, errors };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    errors.push({ modification: null, field: '', reason: `not JSON: ${(e as Error).message}` });
    return { scenario: empty, errors };
  }
  if (!isObject(json)) {
    errors.push({ modification: null, field: '', value: json, reason: 'a scenario is a JSON object' });
    return { scenario: empty, errors };
  }
  const top = new Fields(json, null, errors);
  const name = top.optionalString('name');
  const description = top.optionalString('description');
  top.refuseOthers(['name', 'description', 'modifications', 'id', 'comment', 'projectId', 'bundleId', 'variants', 'feedChecksums']);
  const list = json['modifications'];
  if (!Array.isArray(list)) {
    errors.push({ modification: null, field: 'modifications', value: list, reason: 'a list of modifications is required' });
    return { scenario: { name, description, modifications: [] }, errors };
  }
  if (list.length > limits.maxModifications) {
    errors.push({ modification: null, field: 'modifications', value: list.length, reason: `more than ${limits.maxModifications} modifications` });
    return { scenario: { name, description, modifications: [] }, errors };
  }
  const modifications: Modification[] = [];
  list.forEach((raw, index) => {
    const m = readModification(raw, index, errors);
    if (m) modifications.push(m);
  });
  return { scenario: { name, description, modifications }, errors };
}

function readModification(raw: unknown, index: number, errors: ScenarioError[]): Modification | null {
  if (!isObject(raw)) {
    errors.push({ modification: index, field: '', value: raw, reason: 'a modification is a JSON object' });
    return null;
  }
  const f = new Fields(raw, index, errors);
  const type = raw['type'];
  if (typeof type !== 'string' || !(type in FIELDS)) {
    errors.push({ modification: index, field: 'type', value: type, reason: `unknown type; one of ${MODIFICATION_ORDER.join(', ')}` });
    return null;
  }
  const t = type as ModificationType;
  f.refuseOthers(['type', ...BOOKKEEPING, ...FIELDS[t]]);
  const label = f.optionalString('name') ?? f.optionalString('comment');
  switch (t) {
    case 'add-trips': {
      const stops = f.stopSpecs('stops', 2);
      const entries = f.entries('frequencies', (e) => e.hops(stops.length));
      const mode = f.integer('mode', 3, 0, 1_999);
      const bidirectional = f.boolean('bidirectional', true);
      const directionId = f.integer('directionId', 0, 0, 1);
      return { type: t, index, label, stops, entries, mode, bidirectional, directionId };
    }
    case 'remove-trips':
      return { type: t, index, ...f.choice(true) };
    case 'adjust-speed': {
      const scale = f.number('scale', null, { above: 0 });
      const hops = f.hopPairs('hops');
      return { type: t, index, ...f.choice(true), scale: scale ?? 1, hops, scaleDwells: f.boolean('scaleDwells', false) };
    }
    case 'adjust-dwell-time': {
      const dwellSecs = f.has('dwellSecs') ? f.integer('dwellSecs', 0, 0, 86_400) : null;
      const scale = f.has('scale') ? f.number('scale', null, { atLeast: 0 }) : null;
      if ((dwellSecs === null) === (scale === null)) errors.push({ modification: index, field: 'dwellSecs', reason: 'give exactly one of dwellSecs and scale' });
      return { type: t, index, ...f.choice(true), stops: f.optionalStrings('stops'), dwellSecs, scale };
    }
    case 'remove-stops': {
      const stops = f.optionalStrings('stops');
      if (!stops || stops.length === 0) errors.push({ modification: index, field: 'stops', value: raw['stops'], reason: 'at least one stop to remove is required' });
      return { type: t, index, ...f.choice(false), stops: stops ?? [], secondsSavedAtEachStop: f.integer('secondsSavedAtEachStop', 0, 0, 86_400) };
    }
    case 'reroute': {
      const fromStop = f.optionalString('fromStop');
      const toStop = f.optionalString('toStop');
      if (fromStop === null && toStop === null) errors.push({ modification: index, field: 'fromStop', reason: 'at least one of fromStop and toStop is required' });
      const stops = f.has('stops') ? f.stopSpecs('stops', 0) : [];
      const dwells = stops.length + (fromStop === null ? 0 : 1) + (toStop === null ? 0 : 1);
      const dwellTimes = f.durations('dwellTimes', dwells) ?? [];
      const hopTimes = f.durations('hopTimes', Math.max(0, dwells - 1)) ?? [];
      return { type: t, index, ...f.choice(false), fromStop, toStop, stops, dwellTimes, hopTimes };
    }
    case 'adjust-frequency': {
      const route = f.optionalString('route');
      if (route === null) errors.push({ modification: index, field: 'route', value: raw['route'], reason: 'a route id is required' });
      const entries = f.entries('entries', (e) => {
        if (e.sourceTrip === null) errors.push({ modification: index, field: 'entries.sourceTrip', reason: 'each entry names its source trip' });
      });
      return { type: t, index, route: route ?? '', entries, retainTripsOutsideFrequencyEntries: f.boolean('retainTripsOutsideFrequencyEntries', false) };
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the fields of one JSON object, each fault pushed to `errors` with the object's place. */
class Fields {
  constructor(
    private readonly o: Record<string, unknown>,
    private readonly modification: number | null,
    private readonly errors: ScenarioError[],
    private readonly prefix = '',
  ) {}

  private fail(field: string, value: unknown, reason: string): void {
    this.errors.push({ modification: this.modification, field: this.prefix + field, value, reason });
  }

  has(field: string): boolean {
    return this.o[field] !== undefined && this.o[field] !== null;
  }

  refuseOthers(known: string[]): void {
    for (const key of Object.keys(this.o)) if (!known.includes(key)) this.fail(key, this.o[key], 'unknown field');
  }

  optionalString(field: string): string | null {
    const v = this.o[field];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string' && v !== '') return v;
    this.fail(field, v, 'a non-empty string is required');
    return null;
  }

  optionalStrings(field: string): string[] | null {
    const v = this.o[field];
    if (v === undefined || v === null) return null;
    if (Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '')) return v as string[];
    this.fail(field, v, 'a list of ids (non-empty strings) is required');
    return null;
  }

  boolean(field: string, fallback: boolean): boolean {
    const v = this.o[field];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'boolean') return v;
    this.fail(field, v, 'true or false is required');
    return fallback;
  }

  integer(field: string, fallback: number, min: number, max: number): number {
    const v = this.o[field];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
    this.fail(field, v, `a whole number from ${min} to ${max} is required`);
    return fallback;
  }

  number(field: string, fallback: number | null, bound: { above?: number; atLeast?: number }): number | null {
    const v = this.o[field];
    const lowest = bound.above ?? bound.atLeast ?? 0;
    const ok = typeof v === 'number' && Number.isFinite(v) && (bound.above !== undefined ? v > bound.above : v >= lowest) && v <= 1e6;
    if (ok) return v;
    this.fail(field, v, bound.above !== undefined ? `a number above ${bound.above} is required` : `a number of at least ${lowest} is required`);
    return fallback;
  }

  /** A list of `count` durations (whole seconds, 0 to 86,400), or null after a fault. */
  durations(field: string, count: number): number[] | null {
    const v = this.o[field];
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'number' && Number.isInteger(s) && s >= 0 && s <= 86_400)) {
      this.fail(field, v, 'a list of whole seconds (0 to 86400) is required');
      return null;
    }
    if (v.length !== count) {
      this.fail(field, v, `${count} values are required, ${v.length} given`);
      return null;
    }
    return v as number[];
  }

  /** A time of the service day: whole seconds from 0 to 48 h. */
  time(field: string): number {
    const v = this.o[field];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 * 86_400) return v;
    this.fail(field, v, 'a time is whole seconds after midnight, from 0 to 172800');
    return 0;
  }

  choice(tripsAllowed: boolean): TripChoice {
    const routes = this.optionalStrings('routes');
    const patterns = this.optionalStrings('patterns');
    const trips = tripsAllowed ? this.optionalStrings('trips') : null;
    const given = [routes, patterns, trips].filter((x) => x !== null).length;
    if (given !== 1) this.fail('routes', null, tripsAllowed ? 'give exactly one of routes, patterns and trips' : 'give exactly one of routes and patterns');
    return { routes, patterns, trips };
  }

  hopPairs(field: string): [string, string][] | null {
    const v = this.o[field];
    if (v === undefined || v === null) return null;
    if (Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === 'string' && s !== ''))) return v as [string, string][];
    this.fail(field, v, 'a list of [fromStopId, toStopId] pairs is required');
    return null;
  }

  stopSpecs(field: string, atLeast: number): StopSpec[] {
    const v = this.o[field];
    if (!Array.isArray(v) || v.length < atLeast) {
      this.fail(field, v, `a list of at least ${atLeast} stops is required`);
      return [];
    }
    const specs: StopSpec[] = [];
    v.forEach((s, k) => {
      const at = `${field}[${k}]`;
      if (!isObject(s)) return this.fail(at, s, 'a stop is {"id": …} or {"lat": …, "lon": …}');
      const sf = new Fields(s, this.modification, this.errors, `${this.prefix}${at}.`);
      sf.refuseOthers(['id', 'lat', 'lon', 'name']);
      const id = sf.optionalString('id');
      const hasPlace = s['lat'] !== undefined || s['lon'] !== undefined;
      if (id !== null) {
        if (hasPlace) this.fail(at, s, 'a stop is either an existing id or a new place, not both');
        specs.push({ id });
        return;
      }
      const lat = s['lat'];
      const lon = s['lon'];
      if (typeof lat !== 'number' || typeof lon !== 'number' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180) || (lat === 0 && lon === 0)) {
        return this.fail(at, s, 'a new stop needs a latitude and a longitude (WGS84 degrees)');
      }
      specs.push({ lat, lon, name: sf.optionalString('name') });
    });
    return specs;
  }

  /** The timetable entries of `field`, each checked by `more` too. */
  entries(field: string, more: (e: TimetableEntry & { hops(stops: number): void }) => void): TimetableEntry[] {
    const v = this.o[field];
    if (!Array.isArray(v) || v.length === 0) {
      this.fail(field, v, 'at least one timetable entry is required');
      return [];
    }
    const out: TimetableEntry[] = [];
    v.forEach((raw, k) => {
      const at = `${field}[${k}]`;
      if (!isObject(raw)) return this.fail(at, raw, 'a timetable entry is a JSON object');
      const ef = new Fields(raw, this.modification, this.errors, `${this.prefix}${at}.`);
      const entry = ef.entry();
      out.push(entry);
      more({
        ...entry,
        hops: (stops: number) => {
          entry.hopTimes = ef.durations('hopTimes', Math.max(0, stops - 1));
          entry.dwellTimes = ef.durations('dwellTimes', stops);
        },
      });
    });
    return out;
  }

  private entry(): TimetableEntry {
    this.refuseOthers(ENTRY_FIELDS);
    const firstDepartures = this.o['firstDepartures'];
    const days = WEEKDAYS.map((d) => this.boolean(d, false));
    if (!days.some(Boolean)) this.fail('monday', null, 'an entry runs on at least one weekday');
    const base: TimetableEntry = { startTime: 0, endTime: 0, headwaySecs: 0, firstDepartures: null, days, hopTimes: null, dwellTimes: null, sourceTrip: this.optionalString('sourceTrip'), entryId: this.optionalString('entryId'), phase: null };
    if (firstDepartures !== undefined && firstDepartures !== null) {
      if (this.has('headwaySecs') || this.has('startTime') || this.has('endTime')) this.fail('firstDepartures', firstDepartures, 'give either firstDepartures or startTime, endTime and headwaySecs');
      if (!Array.isArray(firstDepartures) || firstDepartures.length === 0 || !firstDepartures.every((s) => typeof s === 'number' && Number.isInteger(s) && s >= 0 && s <= 2 * 86_400)) {
        this.fail('firstDepartures', firstDepartures, 'a list of times (whole seconds after midnight, 0 to 172800) is required');
        return base;
      }
      return { ...base, firstDepartures: firstDepartures as number[] };
    }
    const startTime = this.time('startTime');
    const endTime = this.time('endTime');
    const headway = this.o['headwaySecs'];
    if (!(typeof headway === 'number' && Number.isInteger(headway) && headway > 0 && headway <= 86_400)) this.fail('headwaySecs', headway, 'a headway is whole seconds above 0');
    if (endTime <= startTime) this.fail('endTime', endTime, `endTime must be after startTime (${startTime})`);
    const entry = { ...base, startTime, endTime, headwaySecs: typeof headway === 'number' && headway > 0 ? Math.floor(headway) : 1 };
    const from = this.optionalString('phaseFromTimetable');
    if (from !== null) {
      const atStop = this.optionalString('phaseAtStop');
      const fromStop = this.optionalString('phaseFromStop');
      const seconds = this.o['phaseSeconds'];
      if (atStop === null || fromStop === null) this.fail('phaseAtStop', null, 'a phased entry names phaseAtStop and phaseFromStop');
      if (!(typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= 0 && seconds <= 86_400)) this.fail('phaseSeconds', seconds, 'whole seconds from 0 are required');
      entry.phase = { fromTimetable: from, atStop: atStop ?? '', fromStop: fromStop ?? '', seconds: typeof seconds === 'number' ? seconds : 0 };
    }
    return entry;
  }
}
