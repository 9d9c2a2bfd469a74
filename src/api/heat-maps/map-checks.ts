/**
 * What the API can tell before a map is computed that makes it empty or partial, as warnings
 * (maps/map-warnings.ts): a centre off the street network (with its distance to the nearest
 * street), a centre outside the coverage's data (and whether lon and lat were swapped), a window
 * in which no trip runs, or no trip of one of the coverage's feeds. Each is a few reads: one nearest-street query (a wider one only when the
 * first finds nothing), a point-in-polygon test on the coverage's hull, and a pass over the
 * timetable's services (a few thousand at most, each with the span of its trips' runs, made once
 * per timetable) that stops at the first one running in the window.
 */
import { LINK_RADIUS_M, projectX, projectY, snapPoint } from '../../model/street-graph.js';
import { Layer } from '../../model/street-layers.js';
import { ringContains } from '../../model/coverage-shape.js';
import type { ServiceDays } from '../../model/service-days.js';
import type { Timetable } from '../../model/timetable.js';
import type { Generation } from '../../service/generation.js';
import { WARNINGS, type Warning } from '../../maps/map-warnings.js';
import { isoDay, localTimeWords } from '../../util/time-words.js';

/** How far the search for the nearest street goes to say how far off a centre is, metres: past it, "farther than". */
const FAR_SEARCH_M = 1_000_000;

/** The map's window, epoch seconds: [t0, t0 + max_duration] for a departure map, [t0 - max_duration, t0] for an arrival map. */
export interface MapWindow {
  fromSec: number;
  toSec: number;
  timeZone: string;
}

export function mapWarnings(g: Generation, lon: number, lat: number, window: MapWindow, transit: boolean): Warning[] {
  const warnings: Warning[] = [];
  const offStreets = streetDistance(g, lon, lat);
  if (offStreets !== undefined) warnings.push(WARNINGS.centreOffStreets(offStreets, String(LINK_RADIUS_M)));
  if (g.shape.length >= 3 && !ringContains(g.shape, lon, lat)) {
    const lonLat = `${lon};${lat}`;
    warnings.push(ringContains(g.shape, lat, lon) ? WARNINGS.centreOutsideDataSwapped(lonLat, `${lat};${lon}`) : WARNINGS.centreOutsideData(lonLat));
  }
  if (transit) warnings.push(...serviceWarnings(g, window));
  return warnings;
}

/**
 * Whether trips run in the window: none at all (`no_service`), or none of one of the coverage's
 * feeds (`no_service_in_feed`). Whatever the centre: a request of many origins (a matrix, every
 * point of a set, the commands) is told the same as a map.
 */
export function serviceWarnings(g: Generation, window: MapWindow): Warning[] {
  if (g.productionStartDay < 0) return [];
  const warnings: Warning[] = [];
  const { fromSec, toSec, timeZone } = window;
  const from = localTimeWords(fromSec, timeZone);
  const to = localTimeWords(toSec, timeZone);
  if (!runsWithin(g.ref.days, fromSec, toSec)) warnings.push(WARNINGS.noService(from, to, isoDay(g.productionStartDay), isoDay(g.productionEndDay)));
  else if (g.tt.feeds.length > 1) {
    // some feed runs, another not: the map shows part of the network (one operator's trains, not the other's buses)
    const periods = feedPeriods(g.ref.days);
    g.tt.feeds.forEach((feed, f) => {
      const period = periods[f];
      if (period && !runsWithin(g.ref.days, fromSec, toSec, f)) warnings.push(WARNINGS.feedNoService(feed.key, from, to, isoDay(period.first), isoDay(period.last)));
    });
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

/**
 * The runs of a timetable grouped by service and time zone: on each day a service runs, its trips
 * run within [minDepSec, maxArrSec] after that day's origin (frequency-based trips from their first
 * start to their last start plus their length). Made once per timetable.
 */
interface ServiceSpans {
  service: Uint32Array;
  tz: Uint16Array;
  feed: Uint16Array;
  minDepSec: Int32Array;
  maxArrSec: Int32Array;
}
const spansOf = new WeakMap<Timetable, ServiceSpans>();

/**
 * Whether some trip of the timetable (of feed `feed` when given) runs (is between its first
 * departure and its last arrival) at some time of [fromSec, toSec].
 */
export function runsWithin(days: ServiceDays, fromSec: number, toSec: number, feed = -1): boolean {
  const tt = days.tt;
  let spans = spansOf.get(tt);
  if (!spans) {
    spans = serviceSpans(tt);
    spansOf.set(tt, spans);
  }
  const { service, tz, minDepSec, maxArrSec } = spans;
  for (let k = 0; k < service.length; k++) {
    if (feed >= 0 && spans.feed[k] !== feed) continue;
    // the days whose runs may reach the window: from the one whose last arrival can reach fromSec to the one starting before toSec
    const first = Math.floor((fromSec - maxArrSec[k]! - MAX_WEST_SEC) / SEC_PER_DAY) - 1;
    const last = Math.ceil((toSec - minDepSec[k]! + MAX_EAST_SEC) / SEC_PER_DAY) + 1;
    for (let d = days.nextActiveDay(service[k]!, first); d >= 0 && d <= last; d = days.nextActiveDay(service[k]!, d + 1)) {
      const origin = days.origin(tz[k]!, d);
      if (origin + minDepSec[k]! <= toSec && origin + maxArrSec[k]! >= fromSec) return true;
    }
  }
  return false;
}

const SEC_PER_DAY = 86_400;
/** UTC offsets range from -12 h to +14 h (as departure-window.ts bounds its days). */
const MAX_EAST_SEC = 14 * 3600;
const MAX_WEST_SEC = 12 * 3600;

function serviceSpans(tt: Timetable): ServiceSpans {
  const { trips, stopTimes, frequencies } = tt;
  const spans = new Map<number, { service: number; tz: number; feed: number; min: number; max: number }>();
  const tzCount = Math.max(1, tt.timezones.length);
  const feedCount = Math.max(1, tt.feeds.length);
  for (let t = 0; t < trips.service.length; t++) {
    const s0 = trips.stopTimeOffset[t]!;
    const s1 = trips.stopTimeOffset[t + 1]!;
    if (s1 <= s0) continue;
    let dep = stopTimes.departureSec[s0]!;
    let arr = stopTimes.arrivalSec[s1 - 1]!;
    const f0 = trips.frequencyOffset[t]!;
    const f1 = trips.frequencyOffset[t + 1]!;
    if (f1 > f0) {
      const length = arr - dep;
      dep = Infinity;
      arr = -Infinity;
      for (let f = f0; f < f1; f++) {
        dep = Math.min(dep, frequencies.startSec[f]!);
        arr = Math.max(arr, frequencies.endSec[f]! + length);
      }
    }
    const tz = tt.agencyTimezone[trips.agency[t]!]!;
    const feed = trips.feed[t]!;
    const key = (trips.service[t]! * tzCount + tz) * feedCount + feed;
    const span = spans.get(key);
    if (!span) spans.set(key, { service: trips.service[t]!, tz, feed, min: dep, max: arr });
    else {
      span.min = Math.min(span.min, dep);
      span.max = Math.max(span.max, arr);
    }
  }
  const list = [...spans.values()];
  return {
    service: Uint32Array.from(list, (x) => x.service),
    tz: Uint16Array.from(list, (x) => x.tz),
    feed: Uint16Array.from(list, (x) => x.feed),
    minDepSec: Int32Array.from(list, (x) => x.min),
    maxArrSec: Int32Array.from(list, (x) => x.max),
  };
}

const periodsOf = new WeakMap<Timetable, ({ first: number; last: number } | undefined)[]>();

/** Each feed's first and last day with a trip running (undefined for a feed with none), made once per timetable. */
function feedPeriods(days: ServiceDays): ({ first: number; last: number } | undefined)[] {
  const tt = days.tt;
  let periods = periodsOf.get(tt);
  if (periods) return periods;
  const serviceFeeds = new Map<number, Set<number>>();
  for (let t = 0; t < tt.trips.service.length; t++) {
    const feeds = serviceFeeds.get(tt.trips.service[t]!) ?? new Set<number>();
    feeds.add(tt.trips.feed[t]!);
    serviceFeeds.set(tt.trips.service[t]!, feeds);
  }
  periods = tt.feeds.map(() => undefined);
  const found = periods;
  for (const [s, feeds] of serviceFeeds) {
    const first = days.nextActiveDay(s, days.firstDay);
    if (first < 0) continue;
    const last = days.lastActiveDay(s);
    for (const f of feeds) {
      const known = found[f];
      found[f] = known ? { first: Math.min(known.first, first), last: Math.max(known.last, last) } : { first, last };
    }
  }
  periodsOf.set(tt, found);
  return found;
}
