/**
 * What a generated country is tiled from: the real street extracts and timetables of the shared
 * data folder (../shared/data, its README), the kinds of tile they make, and the sizes a scale asks.
 *
 * A tile is one street extract moved to its grid cell, with (or without, plan.ts) a timetable: the
 * extract's own city's feeds, or a timetable-only feed laid on another city's streets. The kinds
 * come round in this order, tile after tile:
 *
 *   0 rnv-mannheim streets + rnv          4 rnv-mannheim streets + NYC subway
 *   1 milan streets        + ATM Milano   5 milan streets        + Bydgoszcz
 *   2 porto-alegre streets + EPTC, Trensurb 6 terre-haute streets + Tampa HART
 *   3 terre-haute streets  + Terre Haute  7 milan streets        + WMATA rail
 *
 * Each timetable-only feed lies on the extract nearest its own extent (NYC's 42 × 43 km on rnv's
 * 48 × 35 km, Tampa's 37 × 54 km on Terre Haute's 47 × 50 km), and the round of eight has 2.57 stop
 * times per street node, near rnv's 2.58: a scale in multiples of rnv is met on both counts with
 * few tiles over either.
 */

/** The cities whose street extracts are tiled. */
export type City = 'rnv-mannheim' | 'milan' | 'porto-alegre' | 'terre-haute';

/** Each city's extract, in the data folder. */
export const STREET_EXTRACTS: Record<City, string> = {
  'rnv-mannheim': 'rnv-mannheim/osm.pbf',
  milan: 'milan/osm.pbf',
  'porto-alegre': 'porto-alegre/osm.pbf',
  'terre-haute': 'terre-haute/osm.pbf',
};

/** A GTFS feed of the data folder. */
export interface SourceFeed {
  /** short name, for messages and the manifest */
  name: string;
  /** path in the data folder */
  file: string;
}

const feed = (name: string, file: string): SourceFeed => ({ name, file });
export const SOURCE_FEEDS = {
  rnv: feed('rnv', 'rnv-mannheim/gtfs.zip'),
  milan: feed('atm-milano', 'milan/gtfs.zip'),
  eptc: feed('eptc', 'porto-alegre/gtfs-eptc.zip'),
  trensurb: feed('trensurb', 'porto-alegre/gtfs-trensurb.zip'),
  terreHaute: feed('terre-haute', 'terre-haute/gtfs.zip'),
  nycSubway: feed('nyc-subway', 'nyc/subway-gtfs.zip'),
  bydgoszcz: feed('bydgoszcz', 'medium/bydgoszcz-gtfs.zip'),
  tampa: feed('tampa-hart', 'medium/tampa-hart-gtfs.zip'),
  wmata: feed('wmata-rail', 'medium/wmata-rail-gtfs.zip'),
} as const;

export interface TileKind {
  streets: City;
  /** the timetable a tile of this kind carries (plan.ts decides whether it does) */
  feeds: readonly SourceFeed[];
  /** true: the streets' own city's feeds, at their own places; false: a feed from elsewhere, laid on them (feed-placement.ts) */
  ownCity: boolean;
}

export const TILE_KINDS: readonly TileKind[] = [
  { streets: 'rnv-mannheim', feeds: [SOURCE_FEEDS.rnv], ownCity: true },
  { streets: 'milan', feeds: [SOURCE_FEEDS.milan], ownCity: true },
  { streets: 'porto-alegre', feeds: [SOURCE_FEEDS.eptc, SOURCE_FEEDS.trensurb], ownCity: true },
  { streets: 'terre-haute', feeds: [SOURCE_FEEDS.terreHaute], ownCity: true },
  { streets: 'rnv-mannheim', feeds: [SOURCE_FEEDS.nycSubway], ownCity: false },
  { streets: 'milan', feeds: [SOURCE_FEEDS.bydgoszcz], ownCity: false },
  { streets: 'terre-haute', feeds: [SOURCE_FEEDS.tampa], ownCity: false },
  { streets: 'milan', feeds: [SOURCE_FEEDS.wmata], ownCity: false },
];

/** The size a generation aims at: street nodes and stop times. */
export interface Targets {
  nodes: number;
  stopTimes: number;
}

/** One rnv-mannheim: its extract's nodes and its feed's stop times (the unit of `--scale`). */
export const RNV_SIZE: Targets = { nodes: 164_598, stopTimes: 424_266 };

/** "Germany size" (issue 43): the upper end of a highway-only extract of Germany, and its stop times. */
export const GERMANY_SIZE: Targets = { nodes: 100_000_000, stopTimes: 37_000_000 };

/** `--scale`: a positive number of rnv-mannheims, or `germany`. */
export function targetsOf(scale: string): Targets {
  if (scale === 'germany') return GERMANY_SIZE;
  const s = Number(scale);
  if (!/^\d+(\.\d+)?$/.test(scale) || !(s > 0)) throw new Error(`--scale must be a positive number (multiples of rnv-mannheim) or germany, not ${scale}`);
  return { nodes: Math.round(s * RNV_SIZE.nodes), stopTimes: Math.round(s * RNV_SIZE.stopTimes) };
}
