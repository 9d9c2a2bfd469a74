/**
 * A trip's stops with complete times, as the loader reads them (docs/data-loading.md): a stop time with
 * only one of its arrival and departure takes it for both; the untimed stop times between two timed
 * ones get times in proportion to the distance covered, the cumulative `shape_dist_traveled` when
 * every row of the run has one, else the great-circle distance between consecutive stops, else
 * evenly; rounded to whole seconds. A trip that this oracle rewrites is written with every time
 * explicit, so the copy does not depend on the loader interpolating the same stops again.
 */
import type { GtfsTable } from './gtfs-tables.js';
import { parseGtfsTime } from './gtfs-time.js';

export interface StopVisit {
  stopId: string;
  arrival: number;
  departure: number;
  /** The stop_times.txt row the visit comes from (its other columns are kept), null for a new visit. */
  source: string[] | null;
}

export interface StopPosition {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_M = 6_371_008.8;

function greatCircleM(a: StopPosition, b: StopPosition): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The visits of a trip's stop_times rows (already in stop_sequence order); throws when an end is untimed. */
export function completeVisits(tripId: string, rows: string[][], stopTimes: GtfsTable, stops: Map<string, StopPosition>): StopVisit[] {
  const partial = rows.map((row) => {
    const arrival = parseGtfsTime(stopTimes.get(row, 'arrival_time'));
    const departure = parseGtfsTime(stopTimes.get(row, 'departure_time'));
    const distText = stopTimes.get(row, 'shape_dist_traveled');
    return {
      stopId: stopTimes.get(row, 'stop_id'),
      arrival: arrival ?? departure,
      departure: departure ?? arrival,
      dist: distText === '' ? NaN : Number(distText),
      source: row,
    };
  });
  if (partial.length === 0 || partial[0]!.arrival === null || partial[partial.length - 1]!.arrival === null) {
    throw new Error(`trip ${tripId}: its first or last stop time has no time`);
  }
  let a = 0;
  for (let b = 1; b < partial.length; b++) {
    if (partial[b]!.arrival === null) continue;
    if (b > a + 1) {
      const run = partial.slice(a, b + 1);
      const byShape = run.every((v) => Number.isFinite(v.dist));
      const cumulative = [0];
      for (let i = 1; i < run.length; i++) {
        const p = run[i - 1]!;
        const q = run[i]!;
        const from = stops.get(p.stopId);
        const to = stops.get(q.stopId);
        const step = byShape ? q.dist - p.dist : from && to ? greatCircleM(from, to) : 0;
        cumulative.push(cumulative[i - 1]! + Math.max(0, step));
      }
      const total = cumulative[run.length - 1]!;
      const t0 = run[0]!.departure!;
      const t1 = run[run.length - 1]!.arrival!;
      for (let i = 1; i < run.length - 1; i++) {
        const fraction = total > 0 ? cumulative[i]! / total : i / (run.length - 1);
        const t = Math.round(t0 + (t1 - t0) * fraction);
        run[i]!.arrival = t;
        run[i]!.departure = t;
      }
    }
    a = b;
  }
  return partial.map((v) => ({ stopId: v.stopId, arrival: v.arrival!, departure: v.departure!, source: v.source }));
}

/** Visits timed from a first arrival, then for each stop its dwell and the hop to the next. */
export function visitsFromHopsAndDwells(stopIds: string[], firstArrival: number, hops: number[], dwells: number[]): StopVisit[] {
  const visits: StopVisit[] = [];
  let arrival = firstArrival;
  for (let i = 0; i < stopIds.length; i++) {
    if (i > 0) arrival = visits[i - 1]!.departure + hops[i - 1]!;
    visits.push({ stopId: stopIds[i]!, arrival, departure: arrival + dwells[i]!, source: null });
  }
  return visits;
}

export function hopsOf(visits: StopVisit[]): number[] {
  return visits.slice(1).map((v, i) => v.arrival - visits[i]!.departure);
}

export function dwellsOf(visits: StopVisit[]): number[] {
  return visits.map((v) => v.departure - v.arrival);
}

/** The same stops (and their source rows) timed anew: the first arrival kept, then the given hops and dwells. */
export function retimed(visits: StopVisit[], hops: number[], dwells: number[]): StopVisit[] {
  const timed = visitsFromHopsAndDwells(
    visits.map((v) => v.stopId),
    visits[0]!.arrival,
    hops,
    dwells,
  );
  return timed.map((v, i) => ({ ...v, source: visits[i]!.source }));
}
