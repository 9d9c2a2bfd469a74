/**
 * What the API can tell before a map is computed that makes it empty or partial, as warnings
 * (maps/map-warnings.ts): a centre off the street network (with its distance to the nearest
 * street), a centre outside the coverage's data (and whether lon and lat were swapped), a day on
 * which no trip runs. Each is a few reads: one nearest-street query (a wider one only when the
 * first finds nothing), a point-in-polygon test on the coverage's hull, and a lookup in a table of
 * days with service made once per timetable.
 */
import { LINK_RADIUS_M, projectX, projectY, snapPoint } from '../../model/street-graph.js';
import { Layer } from '../../model/street-layers.js';
import { ringContains } from '../../model/coverage-shape.js';
import type { Timetable } from '../../model/timetable.js';
import type { Generation } from '../../service/generation.js';
import { WARNINGS, type Warning } from '../../maps/map-warnings.js';
import { isoDay } from '../time-words.js';

/** How far the search for the nearest street goes to say how far off a centre is, metres: past it, "farther than". */
const FAR_SEARCH_M = 1_000_000;

export interface MapWindow {
  /** local dates (day numbers) of the map's window: its first and its last */
  firstDay: number;
  lastDay: number;
  /** the window's start, seconds after its first day's midnight */
  startSecOfDay: number;
  /** the day the request names (t0's local date) */
  day: number;
}

export function mapWarnings(g: Generation, lon: number, lat: number, window: MapWindow, transit: boolean): Warning[] {
  const warnings: Warning[] = [];
  const offStreets = streetDistance(g, lon, lat);
  if (offStreets !== undefined) warnings.push(WARNINGS.centreOffStreets(offStreets, String(LINK_RADIUS_M)));
  if (g.shape.length >= 3 && !ringContains(g.shape, lon, lat)) {
    const lonLat = `${lon};${lat}`;
    warnings.push(ringContains(g.shape, lat, lon) ? WARNINGS.centreOutsideDataSwapped(lonLat, `${lat};${lon}`) : WARNINGS.centreOutsideData(lonLat));
  }
  if (transit && g.productionStartDay >= 0 && !runsWithin(g.tt, window.firstDay, window.lastDay, window.startSecOfDay)) {
    warnings.push(WARNINGS.noService(isoDay(window.day), isoDay(g.productionStartDay), isoDay(g.productionEndDay)));
  }
  return warnings;
}

/**
 * How far (x, y) lies from the nearest walking street, in words, when farther than a place links
 * to one; undefined when a street is within reach (or there are no streets: no_solution says it).
 */
function streetDistance(g: Generation, lon: number, lat: number): string | undefined {
  const graph = g.streets?.data.graph;
  if (!graph) return undefined;
  const x = projectX(graph.projection, lon);
  const y = projectY(graph.projection, lat);
  if (snapPoint(graph, Layer.Walk, x, y, LINK_RADIUS_M)) return undefined;
  const far = snapPoint(graph, Layer.Walk, x, y, FAR_SEARCH_M);
  if (!far) return `more than ${FAR_SEARCH_M / 1000} km`;
  return far.offsetM < 1000 ? `${Math.round(far.offsetM)} m` : `${(far.offsetM / 1000).toFixed(1)} km`;
}

/** Per timetable: the days on which some trip runs (index d - services.firstDay), and how long past its day's origin a run may last, seconds. */
interface ServiceSpan {
  days: Uint8Array;
  lastSec: number;
}
const spans = new WeakMap<Timetable, ServiceSpan>();

/**
 * Whether some trip may run within a window of local service days `firstDay` to `lastDay`
 * (`startSecOfDay`: the window's start, seconds after its first day's midnight): those days, and
 * the day before when its runs last past midnight into the window.
 */
export function runsWithin(tt: Timetable, firstDay: number, lastDay: number, startSecOfDay: number): boolean {
  let span = spans.get(tt);
  if (!span) {
    span = serviceSpan(tt);
    spans.set(tt, span);
  }
  const from = startSecOfDay < span.lastSec - SEC_PER_DAY ? firstDay - 1 : firstDay;
  const origin = tt.services.firstDay;
  for (let d = Math.max(from, origin); d <= Math.min(lastDay, origin + span.days.length - 1); d++) if (span.days[d - origin]) return true;
  return false;
}

const SEC_PER_DAY = 86_400;

function serviceSpan(tt: Timetable): ServiceSpan {
  const { words, bits, dayCount } = tt.services;
  const days = new Uint8Array(dayCount);
  for (const s of new Set<number>(tt.trips.service)) {
    for (let d = 0; d < dayCount; d++) if ((bits[s * words + (d >>> 5)]! >>> (d & 31)) & 1) days[d] = 1;
  }
  let lastSec = 0;
  for (const t of tt.stopTimes.arrivalSec) if (t > lastSec) lastSec = t;
  // a frequency-based run starts as late as its row's end, and lasts as long as its stop times
  let lastStart = 0;
  for (const t of tt.frequencies.endSec) if (t > lastStart) lastStart = t;
  return { days, lastSec: lastSec + lastStart };
}
