/**
 * `GET /explorer/coverage/{region}/view.json`: what the explorer needs for a useful first look at a
 * coverage, computed by the server so that the page repeats no rule.
 *
 * - `representative_day`: the day the page opens on (model/representative-day.ts: today inside the
 *   production period, else the busiest weekday's busiest day), with why and how many trips run,
 *   and the hour: that day's busiest hour of departures;
 * - `view_box`: where the page opens: the box where the streets and the stops overlap (a coverage's
 *   stops often reach far beyond its street extract: Porto Alegre's span 63 km, its streets 13 km),
 *   else whichever of the two exists;
 * - the feeds' publishers and whether the streets come from OpenStreetMap (the page credits both),
 *   and whether the coverage has a realtime source (the trips browser shows realtime only then).
 *
 * The per-timetable part (trips a day, the busiest weekday, the boxes) is computed once per
 * generation's data and kept; only "today" is looked at on each request.
 */
import type { FastifyInstance } from 'fastify';
import { busiestHour, busiestWeekday, representativeDay, tripsPerDay, WEEKDAY_NAMES, type BusiestHour, type BusiestWeekday } from '../../model/representative-day.js';
import { unprojectLat, unprojectLon, vertexBox, type StreetGraph } from '../../model/street-graph.js';
import type { Timetable } from '../../model/timetable.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import type { Generation } from '../../service/generation.js';
import { formatDayNumber, SEC_PER_DAY } from '../../util/calendar.js';
import { utcOffsetSec } from '../../util/time-zones.js';
import { coverageUnavailable, unknownRegion } from '../errors.js';

/** [west, south, east, north], degrees */
export type Box = [number, number, number, number];

interface TimetableFacts {
  perDay: Uint32Array;
  busiest: BusiestWeekday;
  stopsBox: Box | null;
  /** the busiest hour of each day asked for (today changes; the busiest weekday does not) */
  hours: Map<number, BusiestHour>;
}

const timetableFacts = new WeakMap<Timetable, TimetableFacts>();
const streetBoxes = new WeakMap<StreetGraph, Box | null>();

export function registerCoverageView(app: FastifyInstance, registry: CoverageRegistry): void {
  app.get<{ Params: { region: string } }>('/explorer/coverage/:region/view.json', async (req, reply) => {
    const coverage = registry.get(req.params.region);
    if (!coverage) throw unknownRegion(req.params.region);
    const generation = coverage.generation;
    if (!generation) throw coverageUnavailable(coverage);
    const hasRealtime = (coverage.config.realtime?.length ?? 0) > 0;
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    return JSON.stringify(coverageView(generation, Date.now() / 1000, hasRealtime, Boolean(coverage.config.osm)));
  });
}

export function coverageView(g: Generation, nowSec: number, hasRealtime: boolean, hasOsm: boolean) {
  const facts = factsOf(g.tt);
  const timeZone = g.tt.timezone;
  const today = Math.floor((nowSec + utcOffsetSec(timeZone, nowSec)) / SEC_PER_DAY);
  const todayIndex = today - g.tt.services.firstDay;
  const tripsToday = todayIndex >= 0 && todayIndex < facts.perDay.length ? facts.perDay[todayIndex]! : 0;
  const chosen = representativeDay(today, g.productionStartDay, g.productionEndDay, facts.busiest, tripsToday);
  const streetsBox = g.streets ? streetBoxOf(g.streets.data.graph) : null;
  let hour = chosen.day >= 0 ? facts.hours.get(chosen.day) : undefined;
  if (chosen.day >= 0 && !hour) facts.hours.set(chosen.day, (hour = busiestHour(g.tt, chosen.day)));
  return {
    production_period: g.productionStartDay >= 0 ? { start: formatDayNumber(g.productionStartDay), end: formatDayNumber(g.productionEndDay) } : null,
    representative_day: {
      date: chosen.day >= 0 ? formatDayNumber(chosen.day) : null,
      reason: chosen.reason,
      trips: chosen.trips,
      // the start of the hour with the most departures that day (null when none leaves), and their count
      hour: hour && hour.hour >= 0 ? hour.hour : null,
      departures: hour?.departures ?? 0,
      // the weekday whose days carry the most trips over the period, even when today was chosen
      busiest_weekday: facts.busiest.weekday >= 0 ? WEEKDAY_NAMES[facts.busiest.weekday] : null,
    },
    today: formatDayNumber(today),
    streets_box: streetsBox,
    stops_box: facts.stopsBox,
    view_box: overlap(streetsBox, facts.stopsBox),
    streets_from_osm: hasOsm && g.streets !== undefined,
    realtime: hasRealtime,
    feed_publishers: g.publishers,
  };
}

/** The intersection of the two boxes; whichever exists when one is missing or they do not meet. */
export function overlap(a: Box | null, b: Box | null): Box | null {
  if (!a || !b) return a ?? b;
  const box: Box = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  if (box[0] >= box[2] || box[1] >= box[3]) return a; // disjoint: the streets, where a map can be drawn
  return box;
}

function factsOf(tt: Timetable): TimetableFacts {
  let facts = timetableFacts.get(tt);
  if (!facts) {
    const perDay = tripsPerDay(tt);
    facts = {
      perDay,
      busiest: busiestWeekday(perDay, tt.services.firstDay),
      stopsBox: boxOf(tt.stopPoints.lon, tt.stopPoints.lat, tt.stopPoints.isZone),
      hours: new Map(),
    };
    timetableFacts.set(tt, facts);
  }
  return facts;
}

/** The box of the stop points (zones left out: an on-demand area's centre is no stop). */
function boxOf(lon: Float64Array, lat: Float64Array, isZone: Uint8Array): Box | null {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (let i = 0; i < lon.length; i++) {
    if (isZone[i]) continue;
    w = Math.min(w, lon[i]!);
    e = Math.max(e, lon[i]!);
    s = Math.min(s, lat[i]!);
    n = Math.max(n, lat[i]!);
  }
  return w <= e ? [round5(w), round5(s), round5(e), round5(n)] : null;
}

/** The box of the street graph's vertices (every street ends at two of them): one pass, once per graph. */
function streetBoxOf(g: StreetGraph): Box | null {
  if (streetBoxes.has(g)) return streetBoxes.get(g)!;
  const v = vertexBox(g);
  const p = g.projection;
  const box: Box | null = v ? [round5(unprojectLon(p, v.minX)), round5(unprojectLat(p, v.minY)), round5(unprojectLon(p, v.maxX)), round5(unprojectLat(p, v.maxY))] : null;
  streetBoxes.set(g, box);
  return box;
}

function round5(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}
