/**
 * The feeds of a coverage while they are read: every object in plain growable lists, in the order
 * the files give them. The readers (read-*.ts) add to it, one file family each; compile-timetable.ts
 * turns it into a Timetable.
 */
import { growUint32 } from '../model/growable.js';
import type { Agency, FeedMeta, Line, NamedObject, StopArea } from '../model/timetable.js';
import type { LoadReport } from './load-report.js';
import { StopTimeStage } from './stop-time-stage.js';

/** A service while loading: calendar rows and exceptions, resolved into a bitset at the end. */
export interface StagedService {
  id: string;
  weekdays: number; // bit 0 = Monday
  startDay: number; // -1 when no calendar row
  endDay: number;
  added: number[];
  removed: number[];
}

export class TimetableDraft {
  readonly feeds: FeedMeta[] = [];
  readonly agencies: Agency[] = [];
  readonly physicalModes: NamedObject[] = [];
  readonly commercialModes: NamedObject[] = [];
  readonly modeIndex = new Map<string, number>();
  readonly lines: Line[] = [];
  readonly stopAreas: StopArea[] = [];
  // Stop points, as plain arrays while loading.
  readonly stopIds: string[] = [];
  readonly stopNames: string[] = [];
  readonly stopLon: number[] = [];
  readonly stopLat: number[] = [];
  readonly stopArea: number[] = [];
  readonly stopWheelchair: number[] = [];
  readonly stopIsZone: number[] = [];
  readonly stopPlatform: string[] = [];
  readonly services: StagedService[] = [];
  // Trips, as plain arrays while loading.
  readonly tripIds: string[] = [];
  readonly tripHeadsigns: string[] = [];
  readonly tripShortNames: string[] = [];
  readonly tripLine: number[] = [];
  readonly tripDirection: number[] = [];
  readonly tripService: number[] = [];
  readonly tripWheelchair: number[] = [];
  readonly tripBikes: number[] = [];
  readonly tripBlock: string[] = [];
  /** Line of each trip in its trips.txt, for messages. */
  readonly tripRowLine: number[] = [];
  readonly tripFeed: number[] = [];
  readonly tripOdt: number[] = [];
  readonly tripStopHeadsigns = new Map<number, Set<string>>();
  readonly tripExtraCodes = new Map<number, string[]>();
  readonly stage = new StopTimeStage();
  /** First staging row of each feed, to name the file of a row in messages. */
  readonly feedFirstRow: number[] = [];
  readonly frequencies = { trip: growUint32(), start: [] as number[], end: [] as number[], headway: [] as number[], exact: [] as number[] };
  readonly transfers = { from: [] as number[], to: [] as number[], type: [] as number[], minTime: [] as number[] };
  /** Global id registries per kind, to detect ids that collide between feeds. */
  private readonly usedIds = new Map<string, Set<string>>();

  constructor(readonly report: LoadReport) {}

  /** A unique id of `kind` for a feed-local id: the id itself, or `<feedKey>:<id>` when taken. */
  uniqueId(kind: string, id: string, feed: number): string {
    let used = this.usedIds.get(kind);
    if (!used) this.usedIds.set(kind, (used = new Set()));
    let unique = id;
    if (used.has(unique)) unique = `${this.feeds[feed]!.key}:${id}`;
    for (let n = 2; used.has(unique); n++) unique = `${this.feeds[feed]!.key}:${id}#${n}`;
    used.add(unique);
    return unique;
  }

  addStopPoint(id: string, name: string, lon: number, lat: number, area: number, wheelchair: number, isZone: number, platform: string): number {
    const idx = this.stopIds.length;
    this.stopIds.push(id);
    this.stopNames.push(name);
    this.stopLon.push(lon);
    this.stopLat.push(lat);
    this.stopArea.push(area);
    this.stopWheelchair.push(wheelchair >= 0 && wheelchair <= 2 ? wheelchair : 0);
    this.stopIsZone.push(isZone);
    this.stopPlatform.push(platform);
    return idx;
  }

  /** The index of a physical or commercial mode, added on first use. */
  mode(list: NamedObject[], prefix: string, key: string, name: string): number {
    const id = `${prefix}:${key}`;
    let idx = this.modeIndex.get(id);
    if (idx === undefined) {
      idx = list.length;
      list.push({ id, name });
      this.modeIndex.set(id, idx);
    }
    return idx;
  }
}
