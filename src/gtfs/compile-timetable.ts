/**
 * The draft of the feeds compiled into a Timetable: services resolved into day bitsets, stop times
 * ordered and completed, trips without usable stop times dropped (each reported), patterns
 * interned, routes (a line in one direction) named by their most common headsign, and every list
 * made a typed array.
 */
import path from 'node:path';
import type { Route, Timetable } from '../model/timetable.js';
import { WINDOW_BIT } from '../model/timetable.js';
import { dayNumber } from '../util/calendar.js';
import { DEFAULT_TIMEZONE, isValidTimeZone } from '../util/time-zones.js';
import { FeedError } from './load-report.js';
import { PatternTable } from './pattern-table.js';
import type { TimetableDraft } from './timetable-draft.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

export async function compileTimetable(draft: TimetableDraft, timezoneOption: string | undefined): Promise<Timetable> {
  const { timezone, timezones, agencyTimezone } = agencyTimeZones(draft, timezoneOption);
  const stopLon = Float64Array.from(draft.stopLon);
  const stopLat = Float64Array.from(draft.stopLat);
  const usable = usableTrips(draft, stopLon, stopLat);
  const keep = usable.keep;
  // the phases in turns of their own: a reload compiles beside requests being answered
  await nextTurn();
  const { stopTimes, stopTimeOffset, tripPattern, patterns } = compileStopTimes(draft, usable);
  await nextTurn();
  const { routes, tripRoute } = compileRoutes(draft, keep);
  const services = resolveServices(draft);
  const frequencies = resolveFrequencies(draft, keep);
  await nextTurn();
  const trips = {
    ids: keep.map((t) => draft.tripIds[t]!),
    names: keep.map((t) => draft.tripShortNames[t] || draft.tripHeadsigns[t] || draft.lines[draft.tripLine[t]!]!.code || draft.tripIds[t]!),
    headsigns: keep.map((t) => draft.tripHeadsigns[t]!),
    shortNames: keep.map((t) => draft.tripShortNames[t]!),
    route: tripRoute,
    line: Uint32Array.from(keep, (t) => draft.tripLine[t]!),
    agency: Uint16Array.from(keep, (t) => draft.lines[draft.tripLine[t]!]!.agency),
    service: Uint32Array.from(keep, (t) => draft.tripService[t]!),
    pattern: tripPattern,
    feed: Uint16Array.from(keep, (t) => draft.tripFeed[t]!),
    odtLevel: Uint8Array.from(keep, (t) => draft.tripOdt[t]!),
    wheelchair: Uint8Array.from(keep, (t) => draft.tripWheelchair[t]!),
    bikes: Uint8Array.from(keep, (t) => draft.tripBikes[t]!),
    blockIds: keep.map((t) => draft.tripBlock[t]!),
    stopTimeOffset,
    frequencyOffset: frequencies.offset,
  };

  await nextTurn();
  const { headsignTrips, tripCodes } = tripIndexes(draft, keep);
  draft.stage.dispose();

  return {
    feeds: draft.feeds,
    timezone,
    agencies: draft.agencies,
    timezones,
    agencyTimezone,
    physicalModes: draft.physicalModes,
    commercialModes: draft.commercialModes,
    lines: draft.lines,
    routes,
    stopAreas: draft.stopAreas,
    stopPoints: {
      ids: draft.stopIds,
      names: draft.stopNames,
      lon: stopLon,
      lat: stopLat,
      area: Uint32Array.from(draft.stopArea),
      wheelchair: Uint8Array.from(draft.stopWheelchair),
      isZone: Uint8Array.from(draft.stopIsZone),
      platformCodes: draft.stopPlatform,
    },
    trips,
    stopTimes,
    frequencies: frequencies.rows,
    patterns: patterns.finish(),
    services,
    transfers: {
      fromStop: Uint32Array.from(draft.transfers.from),
      toStop: Uint32Array.from(draft.transfers.to),
      type: Uint8Array.from(draft.transfers.type),
      minTimeSec: Int32Array.from(draft.transfers.minTime),
    },
    headsignTrips,
    tripCodes,
  };
}


/** The coverage's time zone (the option, else the first agency's) and each agency's, by index. */
function agencyTimeZones(draft: TimetableDraft, timezoneOption: string | undefined) {
  const timezone = timezoneOption || draft.agencies.find((a) => a.timezone)?.timezone || DEFAULT_TIMEZONE;
  if (!isValidTimeZone(timezone)) throw new FeedError(`unknown time zone: ${timezone}`);
  const timezones = [timezone];
  const agencyTimezone = new Uint16Array(draft.agencies.length);
  draft.agencies.forEach((a, i) => {
    if (!a.timezone) a.timezone = timezone;
    let tz = timezones.indexOf(a.timezone);
    if (tz < 0) tz = timezones.push(a.timezone) - 1;
    agencyTimezone[i] = tz;
  });
  return { timezone, timezones, agencyTimezone };
}

interface UsableTrips {
  /** the draft's trips kept, in order: the final trip i is draft trip keep[i] */
  keep: number[];
  /** staging rows of each draft trip, ordered: rows[offsets[t] .. offsets[t] + rowCount[t]] */
  offsets: Uint32Array;
  rows: Int32Array;
  rowCount: Uint32Array;
  stopTimeCount: number;
}

/** The trips whose stop times are usable (ordered, completed); each other one is reported and dropped. */
function usableTrips(draft: TimetableDraft, stopLon: Float64Array, stopLat: Float64Array): UsableTrips {
  const report = draft.report;
  const stage = draft.stage;
  const tripCount = draft.tripIds.length;
  const fileOfRow = (row: number) => {
    let f = 0;
    while (f + 1 < draft.feedFirstRow.length && draft.feedFirstRow[f + 1]! <= row) f++;
    return `${path.basename(draft.feeds[f]!.location)}/stop_times.txt`;
  };
  const { offsets, rows } = stage.rowsByTrip(tripCount, report, fileOfRow);

  const keep: number[] = [];
  const rowCount = new Uint32Array(tripCount); // usable rows of each trip, from offsets[t]
  let stopTimeCount = 0;
  for (let t = 0; t < tripCount; t++) {
    const tripRows = compactRows(rows.subarray(offsets[t]!, offsets[t + 1]!));
    const tripLabel = `${path.basename(draft.feeds[draft.tripFeed[t]!]!.location)}/trips.txt`;
    // A single stop time is a trip only when it is a flex zone's window: any trip inside the zone.
    const zoneOnly = tripRows.length === 1 && (stage.pickDrop.data[tripRows[0]!]! & WINDOW_BIT) !== 0 && draft.stopIsZone[stage.stop.data[tripRows[0]!]!] === 1;
    if (tripRows.length < 2 && !zoneOnly) {
      report.problem(tripLabel, draft.tripRowLine[t]!, tripRows.length === 0 ? 'trip without stop times, skipped' : 'trip with a single stop time, skipped', draft.tripIds[t]!);
      continue;
    }
    const why = stage.completeTimes(tripRows, stopLon, stopLat);
    if (why) {
      report.problem(fileOfRow(tripRows[0]!), stage.line.data[tripRows[0]!]!, `${why}, trip skipped`, draft.tripIds[t]!);
      continue;
    }
    rows.set(tripRows, offsets[t]!);
    rowCount[t] = tripRows.length;
    keep.push(t);
    stopTimeCount += tripRows.length;
  }
  if (keep.length === 0) throw new FeedError('no trip has usable stop times');

  return { keep, offsets, rows, rowCount, stopTimeCount };
}

/** The kept trips' stop times in trip order, and their stop sequences interned as patterns. */
function compileStopTimes(draft: TimetableDraft, usable: UsableTrips) {
  const { keep, offsets, rows, rowCount, stopTimeCount } = usable;
  const stage = draft.stage;
  const n = keep.length;
  const stopTimeOffset = new Uint32Array(n + 1);
  const arrivalSec = new Int32Array(stopTimeCount);
  const departureSec = new Int32Array(stopTimeCount);
  const pickDrop = new Uint8Array(stopTimeCount);
  const sequence = new Uint32Array(stopTimeCount);
  const tripPattern = new Uint32Array(n);
  const patterns = new PatternTable();
  const stArr = stage.arrivalSec.data;
  const stDep = stage.departureSec.data;
  const stPd = stage.pickDrop.data;
  const stSeq = stage.sequence.data;
  const stStop = stage.stop.data;
  const stopSeq = new Uint32Array(256);
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const t = keep[i]!;
    const s = rows.subarray(offsets[t]!, offsets[t]! + rowCount[t]!);
    const k = s.length;
    stopTimeOffset[i] = pos;
    const seqBuf = k <= stopSeq.length ? stopSeq : new Uint32Array(k);
    for (let j = 0; j < k; j++) {
      const r = s[j]!;
      arrivalSec[pos + j] = stArr[r]!;
      departureSec[pos + j] = stDep[r]!;
      pickDrop[pos + j] = stPd[r]!;
      sequence[pos + j] = stSeq[r]!;
      seqBuf[j] = stStop[r]!;
    }
    tripPattern[i] = patterns.intern(seqBuf.subarray(0, k));
    pos += k;
  }
  stopTimeOffset[n] = pos;

  return { stopTimes: { arrivalSec, departureSec, pickDrop, sequence }, stopTimeOffset, tripPattern, patterns };
}

/** Routes: a line in one direction, named by its most common headsign (else the line's name). */
function compileRoutes(draft: TimetableDraft, keep: number[]): { routes: Route[]; tripRoute: Uint32Array } {
  const n = keep.length;
  const routes: Route[] = [];
  const routeKey = new Map<number, number>();
  const tripRoute = new Uint32Array(n);
  const headsignCounts: Map<string, number>[] = [];
  for (let i = 0; i < n; i++) {
    const t = keep[i]!;
    const line = draft.tripLine[t]!;
    const dir = draft.tripDirection[t]!;
    const k = line * 3 + dir + 1;
    let r = routeKey.get(k);
    if (r === undefined) {
      r = routes.length;
      routeKey.set(k, r);
      const l = draft.lines[line]!;
      routes.push({ id: `route:${l.id}:${dir < 0 ? 0 : dir}`, name: '', line, direction: dir });
      headsignCounts.push(new Map());
    }
    tripRoute[i] = r;
    const h = draft.tripHeadsigns[t]!;
    if (h) headsignCounts[r]!.set(h, (headsignCounts[r]!.get(h) ?? 0) + 1);
  }
  routes.forEach((route, r) => {
    let best = '';
    let bestCount = 0;
    for (const [h, c] of headsignCounts[r]!) if (c > bestCount) [best, bestCount] = [h, c];
    route.name = best || draft.lines[route.line]!.name;
  });

  return { routes, tripRoute };
}

/** The trips of each headsign (trip and stop headsigns) and of each external code, by final trip index. */
function tripIndexes(draft: TimetableDraft, keep: number[]) {
  const headsignLists = new Map<string, number[]>();
  const codeLists = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    if (!key) return;
    const list = map.get(key);
    if (!list) map.set(key, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  keep.forEach((t, i) => {
    add(headsignLists, draft.tripHeadsigns[t]!, i);
    for (const h of draft.tripStopHeadsigns.get(t) ?? []) add(headsignLists, h, i);
    add(codeLists, draft.tripIds[t]!, i);
    add(codeLists, draft.tripShortNames[t]!, i);
    for (const code of draft.tripExtraCodes.get(t) ?? []) add(codeLists, code, i);
  });
  const toTyped = (m: Map<string, number[]>) => new Map([...m].map(([k, v]) => [k, Uint32Array.from(v).sort()]));
  return { headsignTrips: toTyped(headsignLists), tripCodes: toTyped(codeLists) };
}

function resolveServices(draft: TimetableDraft): Timetable['services'] {
  let first = Infinity;
  let last = -Infinity;
  for (const s of draft.services) {
    if (s.startDay >= 0) {
      first = Math.min(first, s.startDay);
      last = Math.max(last, s.endDay);
    }
    for (const d of s.added) {
      first = Math.min(first, d);
      last = Math.max(last, d);
    }
  }
  if (first > last) {
    first = dayNumber(2000, 1, 1);
    last = first;
  }
  const dayCount = last - first + 1;
  const words = Math.ceil(dayCount / 32);
  const bits = new Uint32Array(Math.max(1, draft.services.length * words));
  draft.services.forEach((s, i) => {
    const set = (day: number, on: boolean) => {
      const d = day - first;
      if (d < 0 || d >= dayCount) return;
      const w = i * words + (d >>> 5);
      if (on) bits[w]! |= 1 << (d & 31);
      else bits[w]! &= ~(1 << (d & 31));
    };
    if (s.startDay >= 0) {
      for (let day = s.startDay; day <= s.endDay; day++) {
        const weekday = (day + 3) % 7; // day 0 (1970-01-01) was a Thursday; 0 = Monday
        if ((s.weekdays >>> weekday) & 1) set(day, true);
      }
    }
    for (const d of s.added) set(d, true);
    for (const d of s.removed) set(d, false);
  });
  return { ids: draft.services.map((s) => s.id), firstDay: first, dayCount, words, bits };
}

function resolveFrequencies(draft: TimetableDraft, keep: number[]): { offset: Uint32Array; rows: Timetable['frequencies'] } {
  const f = draft.frequencies;
  const newIndex = new Int32Array(draft.tripIds.length).fill(-1);
  keep.forEach((t, i) => (newIndex[t] = i));
  const count = f.trip.length;
  const offset = new Uint32Array(keep.length + 1);
  for (let r = 0; r < count; r++) {
    const i = newIndex[f.trip.data[r]!]!;
    if (i >= 0) offset[i + 1]!++;
  }
  for (let i = 0; i < keep.length; i++) offset[i + 1]! += offset[i]!;
  const total = offset[keep.length]!;
  const rows = { startSec: new Int32Array(total), endSec: new Int32Array(total), headwaySec: new Int32Array(total), exactTimes: new Uint8Array(total) };
  const fill = offset.slice(0, keep.length);
  for (let r = 0; r < count; r++) {
    const i = newIndex[f.trip.data[r]!]!;
    if (i < 0) continue;
    const p = fill[i]!++;
    rows.startSec[p] = f.start[r]!;
    rows.endSec[p] = f.end[r]!;
    rows.headwaySec[p] = f.headway[r]!;
    rows.exactTimes[p] = f.exact[r]!;
  }
  return { offset, rows };
}

/** Rows of a trip without the ones marked -1 (skipped duplicates). */
function compactRows(rows: Int32Array): Int32Array {
  let ok = true;
  for (let i = 0; i < rows.length; i++) if (rows[i]! < 0) ok = false;
  return ok ? rows : rows.filter((r) => r >= 0);
}
