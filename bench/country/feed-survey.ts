/**
 * What the generator needs to know of a source feed before it copies it into tiles, read by
 * Navette's own loader (so that its counts are the ones a coverage of the tiles will have): its stop
 * times and trips, its busiest Tuesday and the shift that puts it on the reference date
 * (service-week.ts), its stop with the most stop times (a tile's main station, where the intercity
 * line stops: intercity.ts), and the box of its stops (feed-placement.ts lays a feed from elsewhere
 * on a tile's streets by it).
 */
import path from 'node:path';
import { loadTimetable } from '../../src/gtfs/gtfs-loader.js';
import { tripsPerDay } from '../../src/model/representative-day.js';
import type { SourceFeed } from './catalogue.js';
import { busiestTuesday, REFERENCE_DAY } from './service-week.js';

export interface FeedSurvey {
  feed: SourceFeed;
  /** the zip's path */
  file: string;
  stopTimes: number;
  trips: number;
  /** the feed's busiest Tuesday (day number) and the trips running that day */
  busiestTuesday: number;
  tripsThatDay: number;
  /** days added to every date of the feed (a whole number of weeks) */
  shiftDays: number;
  /** the stop point with the most stop times (the lowest id of equals) */
  mainStop: { id: string; lon: number; lat: number; stopTimes: number };
  /** the stop points' box, degrees: [west, south, east, north] */
  bbox: [number, number, number, number];
}

export async function surveyFeed(dataDir: string, feed: SourceFeed): Promise<FeedSurvey> {
  const file = path.join(dataDir, feed.file);
  const tt = await loadTimetable([file]);
  const tuesday = busiestTuesday(tripsPerDay(tt), tt.services.firstDay);
  if (!tuesday) throw new Error(`${file}: no trip runs on any Tuesday, so the feed cannot be put on the common week`);
  const stops = tt.stopPoints;
  // a trip's stop times are its pattern's stops, one each
  const perStop = new Uint32Array(stops.ids.length);
  const { stopOffset, stops: patternStops } = tt.patterns;
  for (let t = 0; t < tt.trips.ids.length; t++) {
    const p = tt.trips.pattern[t]!;
    for (let i = stopOffset[p]!; i < stopOffset[p + 1]!; i++) perStop[patternStops[i]!]!++;
  }
  let main = 0;
  for (let s = 1; s < perStop.length; s++) {
    if (perStop[s]! > perStop[main]! || (perStop[s] === perStop[main] && stops.ids[s]! < stops.ids[main]!)) main = s;
  }
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let s = 0; s < stops.ids.length; s++) {
    west = Math.min(west, stops.lon[s]!);
    east = Math.max(east, stops.lon[s]!);
    south = Math.min(south, stops.lat[s]!);
    north = Math.max(north, stops.lat[s]!);
  }
  return {
    feed,
    file,
    stopTimes: tt.stopTimes.arrivalSec.length,
    trips: tt.trips.ids.length,
    busiestTuesday: tuesday.day,
    tripsThatDay: tuesday.trips,
    shiftDays: REFERENCE_DAY - tuesday.day,
    mainStop: { id: stops.ids[main]!, lon: stops.lon[main]!, lat: stops.lat[main]!, stopTimes: perStop[main]! },
    bbox: [west, south, east, north],
  };
}
