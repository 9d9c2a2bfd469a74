/**
 * The country laid out: the planned tiles (plan.ts) in their grid cells (grid.ts), each with its
 * extract and the transform that moves it there, its feeds (their zip names, id prefixes, shifts and
 * placements) and its intercity station. The sources are read once each, when a tile first needs
 * them (street-source.ts, feed-survey.ts), and shared by every tile made of them.
 */
import path from 'node:path';
import { planarMetres } from '../../src/util/geodesy.js';
import { type SourceFeed, STREET_EXTRACTS, type City, type Targets, TILE_KINDS } from './catalogue.js';
import { FeedPlacement, type PointE7 } from './feed-placement.js';
import { type FeedSurvey, surveyFeed } from './feed-survey.js';
import { type Cell, CELL_M, cellOf, type Grid, gridOf, tileTransform, type TileTransform } from './grid.js';
import { planTiles } from './plan.js';
import { StreetSource } from './street-source.js';
import { WalkNodes } from './walk-nodes.js';

export interface Streets {
  source: StreetSource;
  walkNodes: WalkNodes;
}

export interface TileFeed {
  survey: FeedSurvey;
  /** the zip's base name, which is also its ids' prefix before the colon: `t12`, `t12b` */
  name: string;
  placement: FeedPlacement;
}

export interface Tile {
  index: number;
  kind: number;
  cell: Cell;
  city: City;
  streets: Streets;
  transform: TileTransform;
  /** the feeds it carries (none: streets only) */
  feeds: TileFeed[];
  /** its intercity station, and the stop of its feeds it stands for (none on a tile with streets only) */
  station: PointE7;
  mainStop?: string;
}

export interface Layout {
  grid: Grid;
  tiles: Tile[];
}

/** A country of `targets` from the sources of `dataDir`. */
export async function layCountry(dataDir: string, targets: Targets): Promise<Layout> {
  const streets = memo(async (city: City): Promise<Streets> => {
    const source = await StreetSource.load(path.join(dataDir, STREET_EXTRACTS[city]));
    checkFitsCell(source);
    return { source, walkNodes: new WalkNodes(source) };
  });
  const surveys = memo((feed: SourceFeed) => surveyFeed(dataDir, feed));
  const planned = await planTiles(targets, TILE_KINDS.length, async (kind) => {
    const k = TILE_KINDS[kind]!;
    let stopTimes = 0;
    for (const f of k.feeds) stopTimes += (await surveys(f)).stopTimes;
    return { nodes: (await streets(k.streets)).source.a.nodeCount, stopTimes };
  });
  const grid = gridOf(planned.length);
  const tiles: Tile[] = [];
  for (const p of planned) {
    const kind = TILE_KINDS[p.kind]!;
    const s = await streets(kind.streets);
    const cell = cellOf(grid, p.index);
    const transform = tileTransform(s.source.centre, cell);
    const feeds: TileFeed[] = [];
    for (const [i, feed] of (p.timetable ? kind.feeds : []).entries()) {
      const survey = await surveys(feed);
      // a feed from elsewhere is stretched from its stops' box onto the extract's (feed-placement.ts)
      const placement = new FeedPlacement(s.source, s.walkNodes, transform, kind.ownCity ? undefined : survey.bbox);
      feeds.push({ survey, name: `t${p.index}${i === 0 ? '' : String.fromCharCode(0x61 + i)}`, placement });
    }
    // the main station: the stop with the most stop times of the tile's feeds (the first feed's on a tie)
    let main: TileFeed | undefined;
    for (const f of feeds) if (!main || f.survey.mainStop.stopTimes > main.survey.mainStop.stopTimes) main = f;
    const placement = main?.placement ?? new FeedPlacement(s.source, s.walkNodes, transform);
    tiles.push({
      index: p.index,
      kind: p.kind,
      cell,
      city: kind.streets,
      streets: s,
      transform,
      feeds,
      station: placement.station(main?.survey.mainStop),
      mainStop: main ? `${main.name}:${main.survey.mainStop.id}` : undefined,
    });
  }
  return { grid, tiles };
}

/** A cell must hold the extract, so that tiles do not overlap (grid.ts). */
function checkFitsCell(source: StreetSource): void {
  const [west, south, east, north] = source.bbox;
  const { lon, lat } = source.centre;
  const widthM = planarMetres(west, lat, east, lat);
  const heightM = planarMetres(lon, south, lon, north);
  if (Math.max(widthM, heightM) >= CELL_M) throw new Error(`${source.file} spans ${Math.round(widthM)} × ${Math.round(heightM)} m: grid.ts's CELL_M (${CELL_M} m) must exceed it`);
}

/** `f` computed once per argument (its promise shared). */
function memo<K, V>(f: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const done = new Map<K, Promise<V>>();
  return (key) => {
    let v = done.get(key);
    if (!v) done.set(key, (v = f(key)));
    return v;
  };
}
