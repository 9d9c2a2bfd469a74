/**
 * The filter evaluator (src/ptref/filter-eval.ts, with the parser and the referential's conversions)
 * against a plain evaluator written here, on the `town` fixture (test/helpers/town-app.ts): random
 * filters, written as text with every spelling the language allows, parsed, evaluated to trips (and
 * to another object type), and compared with what the plain evaluator keeps when it walks the
 * objects one by one. Six hundred filters combine predicates with `and`, `or`, `-` and `get`; three
 * thousand period and distance predicates, alone, probe the boundaries of their windows and radii.
 * Seeded: a failure names its filter and replays.
 *
 * What the plain evaluator applies, from docs/api.md ("The filter language"), docs/data-loading.md
 * (ids, names, codes) and the comments of filter-eval.ts and referential.ts:
 *
 * - a predicate on type T holds for the objects of T it names: `T.id=X` (its id), `T.name=X`,
 *   `T.has_code(source, X)` (the feed's own id, the trip_id for vehicle journeys), `T.has_code_type(…, source, …)`
 *   (every object of a type with codes), `line.code`, `line.odt_level` (lines with a trip of that
 *   level, every line for another value), `route.has_direction_type` (forward for direction 0,
 *   backward for 1), `vehicle_journey.has_headsign` (the trip's headsign or one of its stop
 *   headsigns), `vehicle_journey.since/until/between/active_at` (a run departing in the window, or
 *   running at the instant, both bounds inclusive), `T.coord DWITHIN(lon, lat, m)` and
 *   `T.within(m, "lon;lat")` (within m metres, great circle);
 * - an object of another type is kept when it is related to one of those: the stop area of a stop
 *   point and the stop points of an area, the line of a route and its routes, the network of a line
 *   and its lines, and otherwise any two objects one trip concerns (its line, route, network, modes,
 *   pattern, feed, calendar, the stops it serves and their areas);
 * - `get T <- e` keeps the objects related to the objects of T that `e` keeps;
 * - `and`, `or` and `-` are and, or and and-not, object by object; `all` and `empty` are true and false.
 *
 * The relations between trips and the other objects are read from the feed's text (trips.txt,
 * routes.txt, stop_times.txt, stops.txt), not from the referential; the objects' ids, names,
 * coordinates, times and calendars from the loaded timetable.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { serviceRunsOn, type Timetable } from '../../../src/model/timetable.js';
import { evaluate } from '../../../src/ptref/filter-eval.js';
import { parseFilter } from '../../../src/ptref/filter-parser.js';
import { BaseFreshness } from '../../../src/ptref/freshness.js';
import type { Caption } from '../../../src/ptref/object-types.js';
import { Referential } from '../../../src/ptref/referential.js';
import { METRES_PER_DEGREE } from '../../../src/util/geodesy.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { mulberry32 } from '../../helpers/random.js';
import { TOWN } from '../../helpers/town-app.js';

// ---------------------------------------------------------------------------------------------
// Filters as the test writes them

type Near = 'stop_point' | 'stop_area';

type Filter =
  | { kind: 'all' }
  | { kind: 'empty' }
  | { kind: 'and' | 'or' | 'minus'; left: Filter; right: Filter }
  | { kind: 'get'; type: Caption; inner: Filter }
  | { kind: 'predicate'; type: Caption; method: string; args: string[] }
  | { kind: 'near'; type: Near; form: 'dwithin' | 'within'; lon: number; lat: number; metres: number };

// ---------------------------------------------------------------------------------------------
// The plain evaluator

/** The rows of one file of a feed written as test/helpers/gtfs-fixture.ts reads it (no quoted fields). */
function gtfsRows(feed: string, file: string): Record<string, string>[] {
  const lines = feed.split('\n').map((l) => l.trim());
  const start = lines.indexOf(`# ${file}`);
  assert.ok(start >= 0, `${file} in the feed`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line) rows.push(line.split(','));
  }
  const [header, ...data] = rows;
  return data.map((cells) => Object.fromEntries(header!.map((name, k) => [name, cells[k] ?? ''])));
}

/** A GTFS route_type's physical and commercial mode names (the two the fixture uses). */
const MODE_OF_ROUTE_TYPE: Record<string, string> = { '0': 'Tramway', '3': 'Bus' };

/** Types whose objects carry codes (the `source` code is the feed's own id). */
const CODE_TYPES = new Set<Caption>(['stop_area', 'network', 'company', 'line', 'route', 'vehicle_journey', 'trip', 'stop_point']);

const isTripLike = (type: Caption) => type === 'trip' || type === 'vehicle_journey';

/** Great-circle distance in metres on the sphere of METRES_PER_DEGREE metres per degree. */
function greatCircleMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * ((METRES_PER_DEGREE * 180) / Math.PI) * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Seconds from 1970 of `YYYYMMDDTHHMMSSZ`. */
function epochOf(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)!;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) / 1000;
}

/** `time zone − UTC` in seconds at an instant. */
function utcOffsetSec(timeZone: string, epochSec: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    .formatToParts(new Date(epochSec * 1000))
    .reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.type]: Number(p.value) }), {});
  return Date.UTC(parts['year']!, parts['month']! - 1, parts['day']!, parts['hour']!, parts['minute']!, parts['second']!) / 1000 - epochSec;
}

/** An object of the referential as the plain evaluator sees it (stops and areas with their place). */
interface PlainObject {
  id: string;
  name: string;
  lon?: number;
  lat?: number;
}

interface Run {
  departure: number;
  arrival: number;
}

class PlainTown {
  /** per trip: its line, route, network, modes, pattern, feed, calendar; the stops it serves */
  private readonly tripLinks: Map<Caption, number[]>[] = [];
  private readonly tripStops: Set<number>[] = [];
  private readonly tripHeadsigns: Set<string>[] = [];
  private readonly areaOfStop: number[];
  /** every run of each trip, epoch seconds */
  readonly runs: Run[][] = [];
  /**
   * the instants where a period filter changes its answer for each trip, by kind: its runs'
   * departures, their arrivals, and for a frequency-based trip the departures and arrivals of the
   * run after the end of its frequency window (which it does not make)
   */
  readonly landmarks: number[][][] = [];
  /** the first departure and the last arrival of all runs */
  readonly calendarSpan: [number, number];

  constructor(
    private readonly tt: Timetable,
    feed: string,
  ) {
    const index = (type: Caption, id: string) => {
      const i = this.objects(type).findIndex((o) => o.id === id);
      assert.ok(i >= 0, `${type} ${id} is loaded`);
      return i;
    };
    const routes = new Map(gtfsRows(feed, 'routes.txt').map((r) => [r['route_id']!, r]));
    const stopTimes = gtfsRows(feed, 'stop_times.txt');
    for (const trip of gtfsRows(feed, 'trips.txt')) {
      const t = index('trip', trip['trip_id']!);
      const route = routes.get(trip['route_id']!)!;
      const mode = MODE_OF_ROUTE_TYPE[route['route_type']!]!;
      const links = new Map<Caption, number[]>([
        ['line', [index('line', trip['route_id']!)]],
        ['route', [index('route', `route:${trip['route_id']}:${trip['direction_id'] || '0'}`)]],
        ['network', [index('network', route['agency_id']!)]],
        ['company', [index('company', route['agency_id']!)]],
        ['physical_mode', [index('physical_mode', `physical_mode:${mode}`)]],
        ['commercial_mode', [index('commercial_mode', `commercial_mode:${mode}`)]],
        ['journey_pattern', [tt.trips.pattern[t]!]],
        ['dataset', [0]],
        ['contributor', [0]],
        ['validity_pattern', [index('validity_pattern', trip['service_id']!)]],
      ]);
      this.tripLinks[t] = links;
      const own = stopTimes.filter((s) => s['trip_id'] === trip['trip_id']);
      this.tripStops[t] = new Set(own.map((s) => index('stop_point', s['stop_id']!)));
      this.tripHeadsigns[t] = new Set([trip['trip_headsign']!, ...own.map((s) => s['stop_headsign']!)].filter((h) => h !== ''));
    }
    const parents = new Map(gtfsRows(feed, 'stops.txt').map((s) => [s['stop_id']!, s['parent_station']!]));
    this.areaOfStop = tt.stopPoints.ids.map((id) => index('stop_area', parents.get(id) || `stop_area:${id}`));
    for (let t = 0; t < tt.trips.ids.length; t++) this.addRuns(t);
    const runs = this.runs.flat();
    this.calendarSpan = [Math.min(...runs.map((r) => r.departure)), Math.max(...runs.map((r) => r.arrival))];
  }

  /** Every run of trip `t` over the calendar (one per service day, or per frequency departure), and its landmarks. */
  private addRuns(t: number): void {
    const { trips, stopTimes, frequencies, services } = this.tt;
    const first = stopTimes.departureSec[trips.stopTimeOffset[t]!]!;
    const duration = stopTimes.arrivalSec[trips.stopTimeOffset[t + 1]! - 1]! - first;
    const departures: number[] = [];
    const ends: number[] = [];
    for (let f = trips.frequencyOffset[t]!; f < trips.frequencyOffset[t + 1]!; f++) {
      for (let d = frequencies.startSec[f]!; d < frequencies.endSec[f]!; d += frequencies.headwaySec[f]!) departures.push(d);
      ends.push(frequencies.endSec[f]!);
    }
    if (departures.length === 0) departures.push(first);
    const timeZone = this.tt.agencies[trips.agency[t]!]!.timezone;
    const runs: Run[] = [];
    const landmarks: number[][] = [[], [], [], []];
    for (let day = services.firstDay; day < services.firstDay + services.dayCount; day++) {
      if (!serviceRunsOn(this.tt, trips.service[t]!, day)) continue;
      // times count from noon minus 12 hours, local time
      const noon = day * 86400 + 12 * 3600;
      const origin = noon - utcOffsetSec(timeZone, noon) - 12 * 3600;
      for (const d of departures) runs.push({ departure: origin + d, arrival: origin + d + duration });
      for (const d of departures) landmarks[0]!.push(origin + d), landmarks[1]!.push(origin + d + duration);
      for (const d of ends) landmarks[2]!.push(origin + d), landmarks[3]!.push(origin + d + duration);
    }
    this.runs[t] = runs;
    this.landmarks[t] = landmarks.filter((kind) => kind.length > 0);
  }


  private readonly objectsByType = new Map<Caption, PlainObject[]>();

  /** The objects of a type, by index. */
  objects(type: Caption): PlainObject[] {
    let objects = this.objectsByType.get(type);
    if (!objects) this.objectsByType.set(type, (objects = this.objectsOf(type)));
    return objects;
  }

  private objectsOf(type: Caption): PlainObject[] {
    const tt = this.tt;
    switch (type) {
      case 'trip':
        return tt.trips.ids.map((id, i) => ({ id, name: tt.trips.names[i]! }));
      case 'vehicle_journey':
        return tt.trips.ids.map((id, i) => ({ id: `vehicle_journey:${id}`, name: tt.trips.names[i]! }));
      case 'line':
        return tt.lines;
      case 'route':
        return tt.routes;
      case 'network':
      case 'company':
        return tt.agencies;
      case 'physical_mode':
        return tt.physicalModes;
      case 'commercial_mode':
        return tt.commercialModes;
      case 'stop_area':
        return tt.stopAreas;
      case 'stop_point':
        return tt.stopPoints.ids.map((id, i) => ({ id, name: tt.stopPoints.names[i]!, lon: tt.stopPoints.lon[i]!, lat: tt.stopPoints.lat[i]! }));
      case 'journey_pattern':
        return Array.from({ length: tt.patterns.stopOffset.length - 1 }, (_, i) => ({ id: `journey_pattern:${i}`, name: `journey_pattern:${i}` }));
      case 'dataset':
      case 'contributor':
        return tt.feeds.map((f) => ({ id: f.key, name: f.publisherName || f.key }));
      case 'validity_pattern':
        return tt.services.ids.map((id) => ({ id, name: id }));
      default:
        return [];
    }
  }

  /** Whether object `o` of `type` is one trip `t` concerns. */
  private concerns(type: Caption, o: number, t: number): boolean {
    if (isTripLike(type)) return o === t;
    if (type === 'stop_point') return this.tripStops[t]!.has(o);
    if (type === 'stop_area') return [...this.tripStops[t]!].some((s) => this.areaOfStop[s] === o);
    return this.tripLinks[t]!.get(type)?.includes(o) ?? false;
  }

  /** Whether object `a` of type `from` and object `b` of type `to` are related. */
  related(from: Caption, a: number, to: Caption, b: number): boolean {
    if (from === to || (isTripLike(from) && isTripLike(to))) return a === b;
    const direct = (x: Caption, y: Caption) => from === x && to === y;
    if (direct('stop_area', 'stop_point')) return this.areaOfStop[b] === a;
    if (direct('stop_point', 'stop_area')) return this.areaOfStop[a] === b;
    if (direct('line', 'route')) return this.tt.routes[b]!.line === a;
    if (direct('route', 'line')) return this.tt.routes[a]!.line === b;
    if (direct('network', 'line') || direct('company', 'line')) return this.tt.lines[b]!.agency === a;
    if (direct('line', 'network') || direct('line', 'company')) return this.tt.lines[a]!.agency === b;
    return this.tt.trips.ids.some((_, t) => this.concerns(from, a, t) && this.concerns(to, b, t));
  }

  /** For each object of `type`, whether the filter keeps it. */
  keeps(f: Filter, type: Caption): boolean[] {
    const count = this.objects(type).length;
    switch (f.kind) {
      case 'all':
        return Array(count).fill(true);
      case 'empty':
        return Array(count).fill(false);
      case 'and':
      case 'or':
      case 'minus': {
        const left = this.keeps(f.left, type);
        const right = this.keeps(f.right, type);
        return left.map((l, o) => (f.kind === 'and' ? l && right[o]! : f.kind === 'or' ? l || right[o]! : l && !right[o]!));
      }
      case 'get':
        return this.lift(f.type, this.keeps(f.inner, f.type), type);
      case 'predicate':
        return this.lift(f.type, this.named(f.type, f.method, f.args), type);
      case 'near': {
        const near = this.objects(f.type).map((o) => greatCircleMetres(f.lon, f.lat, o.lon!, o.lat!) <= f.metres);
        return this.lift(f.type, near, type);
      }
    }
  }

  /** The objects of `to` related to one of the objects of `from` that `chosen` marks. */
  private lift(from: Caption, chosen: boolean[], to: Caption): boolean[] {
    return this.objects(to).map((_, b) => chosen.some((yes, a) => yes && this.related(from, a, to, b)));
  }

  /** For each object of `type`, whether the predicate names it. */
  private named(type: Caption, method: string, args: string[]): boolean[] {
    const objects = this.objects(type);
    const [first = '', second = ''] = args;
    const each = (keep: (o: number) => boolean) => objects.map((_, o) => keep(o));
    switch (method) {
      case 'id':
      case 'uri':
        return each((o) => objects[o]!.id === first);
      case 'name':
        return each((o) => objects[o]!.name === first);
      case 'has_code':
        return each((o) => CODE_TYPES.has(type) && first === 'source' && (isTripLike(type) ? this.tt.trips.ids[o] : objects[o]!.id) === second);
      case 'has_code_type':
        return each(() => CODE_TYPES.has(type) && args.includes('source'));
      case 'code':
        return each((o) => this.tt.lines[o]!.code === first);
      case 'odt_level': {
        const level = ['scheduled', 'with_stops', 'zonal'].indexOf(first);
        return each((o) => level < 0 || this.tt.trips.line.some((line, t) => line === o && this.tt.trips.odtLevel[t] === level));
      }
      case 'has_direction_type':
        return each((o) => args.includes(['forward', 'backward'][this.tt.routes[o]!.direction] ?? ''));
      case 'has_headsign':
        return each((t) => this.tripHeadsigns[t]!.has(first));
      case 'since': {
        const since = epochOf(first);
        return each((t) => this.runs[t]!.some((r) => r.departure >= since));
      }
      case 'until': {
        const until = epochOf(first);
        return each((t) => this.runs[t]!.some((r) => r.departure <= until));
      }
      case 'between': {
        const [since, until] = [epochOf(first), epochOf(second)];
        return each((t) => this.runs[t]!.some((r) => since <= r.departure && r.departure <= until));
      }
      case 'active_at': {
        const at = epochOf(first);
        return each((t) => this.runs[t]!.some((r) => r.departure <= at && at <= r.arrival));
      }
      default:
        throw new Error(`the plain evaluator knows no ${type}.${method}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random filters

const random = mulberry32(26);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Every type with objects in the fixture. */
const TYPES_WITH_OBJECTS: Caption[] = [
  'trip',
  'vehicle_journey',
  'line',
  'route',
  'network',
  'company',
  'physical_mode',
  'commercial_mode',
  'stop_area',
  'stop_point',
  'journey_pattern',
  'dataset',
  'contributor',
  'validity_pattern',
];
/** Those, and two types without objects. */
const TYPES: Caption[] = [...TYPES_WITH_OBJECTS, 'line_group', 'poi'];
/** The types the test evaluates filters in, besides trips. */
const TARGETS: Caption[] = ['vehicle_journey', 'line', 'route', 'network', 'physical_mode', 'stop_area', 'stop_point', 'journey_pattern'];

let town: PlainTown;
let ref: Referential;

/** An id or name of the fixture: mostly of the predicate's own type, sometimes another type's, sometimes none. */
function valueOf(type: Caption, key: 'id' | 'name'): string {
  const own = town.objects(type);
  const r = random();
  if (r < 0.7 && own.length > 0) return pick(own)[key];
  if (r < 0.9) return pick(town.objects(pick(TYPES_WITH_OBJECTS)))[key];
  return pick(['NOPE', 'B1-08', 'vehicle_journey:NOPE']);
}

/** Instants to filter on: near a trip's landmarks of some kind (exactly, a second off, minutes off), or anywhere around the calendar. */
function randomInstant(): number {
  if (random() < 0.7) {
    const landmark = pick(pick(pick(town.landmarks)));
    return landmark + pick([0, 0, -1, 1, -300, 300, -600, 600, Math.round((random() - 0.5) * 4 * 3600)]);
  }
  const [first, last] = town.calendarSpan;
  return Math.round(first - 2 * 86400 + random() * (last - first + 4 * 86400));
}

/** A short window starting or ending at one of those instants, or around it. */
function aroundAnInstant(): number[] {
  const at = randomInstant();
  return [at - pick([0, 0, 1, 60, 900]), at + pick([0, 0, 1, 60, 900, 3 * 86400])];
}

const datetime = (epochSec: number) => new Date(epochSec * 1000).toISOString().replace(/[-:]|\.\d+/g, '');

function randomLeaf(): Filter {
  const r = random();
  if (r < 0.04) return { kind: 'all' };
  if (r < 0.07) return { kind: 'empty' };
  if (r < 0.3) {
    const type = pick(TYPES);
    return { kind: 'predicate', type, method: pick(['id', 'uri']), args: [valueOf(type, 'id')] };
  }
  if (r < 0.38) {
    const type = pick(TYPES);
    return { kind: 'predicate', type, method: 'name', args: [valueOf(type, 'name')] };
  }
  if (r < 0.44) {
    const type = pick(TYPES);
    const value = random() < 0.5 ? valueOf(type, 'id') : valueOf('trip', 'id');
    return { kind: 'predicate', type, method: 'has_code', args: [pick(['source', 'source', 'external']), value] };
  }
  if (r < 0.47) return { kind: 'predicate', type: pick(TYPES), method: 'has_code_type', args: [...new Set([pick(['source', 'external']), pick(['source', 'other'])])] };
  if (r < 0.52) return { kind: 'predicate', type: 'line', method: 'code', args: [pick([...ref.tt.lines.map((l) => l.code), 'bob'])] };
  if (r < 0.56) return { kind: 'predicate', type: 'line', method: 'odt_level', args: [pick(['scheduled', 'with_stops', 'zonal', 'anything'])] };
  if (r < 0.6) return { kind: 'predicate', type: 'route', method: 'has_direction_type', args: [...new Set([pick(['forward', 'backward']), pick(['forward', 'backward', 'sideways'])])] };
  // the fixture's trip and stop headsigns, and words that are none (a stop's name, a route's, another case)
  if (r < 0.66) return { kind: 'predicate', type: 'vehicle_journey', method: 'has_headsign', args: [pick(['Musée', 'Centre', 'Gare', 'École', 'Nuit', 'Parc', 'Tram', 'gare'])] };
  return r < 0.84 ? randomPeriod() : randomNear();
}

/** `vehicle_journey.since/until/between/active_at`, at instants near the runs' landmarks, with or without a freshness level. */
function randomPeriod(): Filter {
  const level = random() < 0.5 ? [] : [pick(['base_schedule', 'adapted_schedule', 'realtime', 'tomorrow'])];
  const method = pick(['since', 'until', 'between', 'active_at']);
  const instants = method !== 'between' ? [randomInstant()] : random() < 0.2 ? [randomInstant(), randomInstant()].sort((a, b) => a - b) : aroundAnInstant();
  return { kind: 'predicate', type: 'vehicle_journey', method, args: [...instants.map(datetime), ...level] };
}

/** `T.coord DWITHIN(…)` or `T.within(…)` around a stop or an area, or a little off it. */
function randomNear(): Filter {
  const type = pick(['stop_point', 'stop_area'] as const);
  const centre = pick(town.objects(type));
  const [dLon, dLat] = random() < 0.4 ? [0, 0] : [(random() - 0.5) * 0.01, (random() - 0.5) * 0.01];
  return {
    kind: 'near',
    type,
    form: pick(['dwithin', 'within'] as const),
    lon: centre.lon! + dLon,
    lat: centre.lat! + dLat,
    metres: pick([0, 10, 50, 100, 200, 300, 500, 1000, 2500, -5, Math.round(random() * 3000)]),
  };
}

function randomFilter(depth: number): Filter {
  const r = random();
  if (depth === 0 || r < 0.3) return randomLeaf();
  if (r < 0.5) return { kind: 'and', left: randomFilter(depth - 1), right: randomFilter(depth - 1) };
  if (r < 0.7) return { kind: 'or', left: randomFilter(depth - 1), right: randomFilter(depth - 1) };
  if (r < 0.88) return { kind: 'minus', left: randomFilter(depth - 1), right: randomFilter(depth - 1) };
  return { kind: 'get', type: pick(TARGETS), inner: randomFilter(depth - 1) };
}

// ---------------------------------------------------------------------------------------------
// Filters as text: every spelling the language allows, parentheses only where precedence needs
// them (and a few more)

/** A value, bare when the language allows it and the coin says so, else quoted with escapes. */
function valueText(value: string): string {
  if (/^[A-Za-z0-9_.:;|-]+$/.test(value) && random() < 0.6) return value;
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** `-` binds tightest, then `and`, then `or`; `get` takes everything to its right. */
const PRECEDENCE = { or: 1, and: 2, minus: 3 } as const;

function precedenceOf(f: Filter): number {
  if (f.kind === 'and' || f.kind === 'or' || f.kind === 'minus') return PRECEDENCE[f.kind];
  return f.kind === 'get' ? 0 : 4;
}

/** An operand of an operator of precedence `outer`: parenthesised when it would otherwise parse differently (left-associative operators). */
function operandText(f: Filter, outer: number, right: boolean): string {
  const p = precedenceOf(f);
  return (right ? p <= outer : p < outer) || random() < 0.1 ? `(${filterText(f)})` : filterText(f);
}

function filterText(f: Filter): string {
  switch (f.kind) {
    case 'all':
    case 'empty':
      return f.kind;
    case 'and':
    case 'or':
      return `${operandText(f.left, PRECEDENCE[f.kind], false)} ${random() < 0.5 ? f.kind : f.kind.toUpperCase()} ${operandText(f.right, PRECEDENCE[f.kind], true)}`;
    case 'minus':
      return `${operandText(f.left, PRECEDENCE.minus, false)} - ${operandText(f.right, PRECEDENCE.minus, true)}`;
    case 'get':
      return `${pick(['get', 'GET'])} ${f.type} <- ${filterText(f.inner)}`;
    case 'predicate':
      if (f.args.length === 1 && random() < 0.5) return `${f.type}.${f.method}=${valueText(f.args[0]!)}`;
      return `${f.type}.${f.method}(${f.args.map(valueText).join(', ')})`;
    case 'near':
      if (f.form === 'within') return `${f.type}.within(${valueText(String(f.metres))}, ${valueText(`${f.lon};${f.lat}`)})`;
      return `${f.type}.coord DWITHIN(${[f.lon, f.lat, f.metres].map((n) => valueText(String(n))).join(', ')})`;
  }
}

// ---------------------------------------------------------------------------------------------

before(async () => {
  const tt = await loadTimetable([writeFeed(TOWN, 'town')], { report: new LoadReport() });
  ref = new Referential(tt);
  town = new PlainTown(tt, TOWN);
});

/** Ids of the objects of `type` at the given indexes. */
const idsOf = (type: Caption, indexes: Iterable<number>) => [...indexes].map((i) => town.objects(type)[i]!.id);

test('600 random filters: the evaluator keeps the trips, and the objects of another type, that the plain evaluator keeps', () => {
  const ctx = { ref, freshness: new BaseFreshness(ref) };
  const tripCount = town.objects('trip').length;
  let discriminating = 0;
  for (let k = 0; k < 600; k++) {
    const filter = randomFilter(pick([1, 2, 3, 4]));
    const text = filterText(filter);
    for (const target of ['trip', pick(TARGETS)] as Caption[]) {
      const actual = idsOf(target, evaluate(parseFilter(text), target, ctx));
      const expected = idsOf(
        target,
        town.keeps(filter, target).flatMap((kept, o) => (kept ? [o] : [])),
      );
      assert.deepEqual(actual, expected, `filter ${k}, in ${target}: ${text}`);
      if (target === 'trip' && expected.length > 0 && expected.length < tripCount) discriminating++;
    }
  }
  // the filters tell trips apart: a quarter or more keep some trips and leave others
  assert.ok(discriminating >= 150, `${discriminating} of 600 filters keep some trips and not others`);
});

test('3,000 random period and distance predicates alone: each keeps the trips the plain evaluator keeps, at their boundaries', () => {
  const ctx = { ref, freshness: new BaseFreshness(ref) };
  for (let k = 0; k < 3000; k++) {
    const predicate = random() < 0.8 ? randomPeriod() : randomNear();
    const text = filterText(predicate);
    const actual = idsOf('trip', evaluate(parseFilter(text), 'trip', ctx));
    const expected = idsOf(
      'trip',
      town.keeps(predicate, 'trip').flatMap((kept, t) => (kept ? [t] : [])),
    );
    assert.deepEqual(actual, expected, `predicate ${k}: ${text}`);
  }
});
