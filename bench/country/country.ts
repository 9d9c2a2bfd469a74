/**
 * A country generated into a folder: the layout (layout.ts) written as files that `navette build`
 * and `navette serve` read through the configuration written beside them.
 *
 *   DIR/streets.osm.pbf     every tile's streets, one sorted PBF (pbf-out.ts)
 *   DIR/gtfs/t0.zip …       one GTFS zip per feed of a tile carrying a timetable (feed-copy.ts)
 *   DIR/gtfs/intercity.zip  the intercity lines (intercity.ts), when there are two tiles or more
 *   DIR/points.csv          the country's point set: each tile's station and a 13 km lattice on its streets (points.ts)
 *   DIR/navette.json        a configuration with one coverage, `country`, of all of them, `points` its point set
 *   DIR/country.json        what was generated: the grid, each tile's sources, feeds and station, the counts
 *
 * A zip per feed, not one merged feed: each tile is copied as it is read, with no table to join
 * across tiles, and a coverage lists several feeds (the configuration's `gtfs` array), as a country's
 * operators publish theirs. Every file is written in a fixed order from fixed inputs, and neither the
 * zips nor the PBF hold a time: the same arguments give the same bytes.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZipWriter } from '../../test/helpers/zip-writer.js';
import type { Targets } from './catalogue.js';
import { copyFeed } from './feed-copy.js';
import { CELL_M, e7Text, GRID_ORIGIN } from './grid.js';
import { COUNTRY_TIMEZONE } from './gtfs-tables.js';
import { intercityLines, stationId, writeIntercity, type IntercityCounts } from './intercity.js';
import { layCountry, type Layout, type Tile } from './layout.js';
import { PbfOut, type BoxE7 } from './pbf-out.js';
import { POINT_SET, pointsCsv, POINTS_FILE, tilePoints } from './points.js';
import { REFERENCE_DATE } from './service-week.js';
import { ID_STRIDE } from './street-source.js';

/** zlib's default level for the generated zips: a third faster than 9 on GTFS text, 3 % larger. */
const ZIP_LEVEL = 6;
/** The coverage the configuration declares. */
export const COVERAGE_ID = 'country';
export const STREETS_FILE = 'streets.osm.pbf';
const WRITING_PROGRAM = 'navette bench/country';

export interface CountryCounts {
  tiles: number;
  /** tiles carrying a timetable */
  timetableTiles: number;
  nodes: number;
  ways: number;
  /** rows of the feeds' stops.txt, trips.txt and stop_times.txt, the intercity feed's included */
  stops: number;
  trips: number;
  stopTimes: number;
  /** GTFS zips, the intercity feed's included */
  feeds: number;
  intercity: IntercityCounts | null;
  pbfBytes: number;
  gtfsBytes: number;
}

/** Seconds each step took: the sources read and the tiles laid out, the streets written, the tiles' feeds copied. */
export interface CountryTimes {
  sources: number;
  streets: number;
  timetables: number;
}

export interface Country {
  layout: Layout;
  counts: CountryCounts;
  /** not in country.json: it would change the bytes from one run to the next */
  seconds: CountryTimes;
  /** the places of points.csv (not in country.json, written before the point set was) */
  points: number;
  /** the configuration's path */
  config: string;
}

export async function generateCountry(dataDir: string, targets: Targets, scale: string, out: string): Promise<Country> {
  let started = performance.now();
  const lap = () => {
    const now = performance.now();
    const s = (now - started) / 1000;
    started = now;
    return s;
  };
  const layout = await layCountry(dataDir, targets);
  const seconds: CountryTimes = { sources: lap(), streets: 0, timetables: 0 };
  mkdirSync(path.join(out, 'gtfs'), { recursive: true });
  const counts: CountryCounts = { tiles: layout.tiles.length, timetableTiles: 0, nodes: 0, ways: 0, stops: 0, trips: 0, stopTimes: 0, feeds: 0, intercity: null, pbfBytes: 0, gtfsBytes: 0 };
  const pbf = writeStreets(path.join(out, STREETS_FILE), layout.tiles);
  Object.assign(counts, { nodes: pbf.nodes, ways: pbf.ways, pbfBytes: pbf.bytes });
  seconds.streets = lap();
  const gtfs: string[] = [];
  for (const tile of layout.tiles) {
    if (tile.feeds.length > 0) counts.timetableTiles++;
    for (const feed of tile.feeds) {
      const file = path.join('gtfs', `${feed.name}.zip`);
      const zip = new ZipWriter(path.join(out, file), ZIP_LEVEL);
      const rows = await copyFeed(feed.survey.file, zip, { prefix: `${feed.name}:`, shiftDays: feed.survey.shiftDays, placement: feed.placement });
      await zip.close();
      gtfs.push(file);
      counts.stops += rows['stops.txt'] ?? 0;
      counts.trips += rows['trips.txt'] ?? 0;
      counts.stopTimes += rows['stop_times.txt'] ?? 0;
    }
  }
  const stations = layout.tiles.map((t) => ({ tile: t.index, row: t.cell.row, col: t.cell.col, lonE7: t.station[0], latE7: t.station[1] }));
  const lines = intercityLines(layout.grid, stations);
  if (lines.length > 0) {
    const file = path.join('gtfs', 'intercity.zip');
    const ic = await writeIntercity(path.join(out, file), stations, lines, ZIP_LEVEL);
    gtfs.push(file);
    counts.intercity = ic;
    counts.stops += ic.stops;
    counts.trips += ic.trips;
    counts.stopTimes += ic.stopTimes;
  }
  counts.feeds = gtfs.length;
  seconds.timetables = lap();
  for (const f of gtfs) counts.gtfsBytes += statSync(path.join(out, f)).size;
  const points = layout.tiles.flatMap((t) => tilePoints(t));
  writeFileSync(path.join(out, POINTS_FILE), pointsCsv(points));
  const config = path.join(out, 'navette.json');
  const coverage = { id: COVERAGE_ID, gtfs, osm: STREETS_FILE, timezone: COUNTRY_TIMEZONE, pointSets: { [POINT_SET]: POINTS_FILE } };
  writeFileSync(config, JSON.stringify({ coverages: [coverage] }, null, 2) + '\n');
  writeFileSync(path.join(out, 'country.json'), JSON.stringify(manifest(scale, targets, layout, counts), null, 2) + '\n');
  return { layout, counts, seconds, config, points: points.length };
}

/** Every tile's nodes, then every tile's ways, ids ascending (tile t's from t × ID_STRIDE + 1). */
function writeStreets(file: string, tiles: Tile[]): PbfOut {
  const pbf = new PbfOut(file, boxOf(tiles), WRITING_PROGRAM);
  for (const tile of tiles) {
    const { lon, lat, nodeCount } = tile.streets.source.a;
    const base = tile.index * ID_STRIDE + 1;
    const { lonE7, latE7 } = tile.transform;
    for (let k = 0; k < nodeCount; k++) pbf.node(base + k, lonE7(lon[k]!), latE7(lat[k]!));
  }
  const refs: number[] = [];
  for (const tile of tiles) {
    const { wayCount, wayNodeOffset, wayNodes, wayTagOffset, tagKeys, tagValues } = tile.streets.source.a;
    const base = tile.index * ID_STRIDE + 1;
    for (let w = 0; w < wayCount; w++) {
      refs.length = 0;
      for (let i = wayNodeOffset[w]!; i < wayNodeOffset[w + 1]!; i++) refs.push(base + wayNodes[i]!);
      pbf.way(base + w, tagKeys, tagValues, wayTagOffset[w]!, wayTagOffset[w + 1]!, refs);
    }
  }
  pbf.close();
  return pbf;
}

/** The box of every tile's nodes, moved (the transform keeps each axis's order, so the moved box is the box moved). */
function boxOf(tiles: Tile[]): BoxE7 {
  const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const t of tiles) {
    const [west, south, east, north] = t.streets.source.bbox;
    box.west = Math.min(box.west, t.transform.lonE7(west));
    box.east = Math.max(box.east, t.transform.lonE7(east));
    box.south = Math.min(box.south, t.transform.latE7(south));
    box.north = Math.max(box.north, t.transform.latE7(north));
  }
  return box;
}

function manifest(scale: string, targets: Targets, layout: Layout, counts: CountryCounts) {
  return {
    scale,
    targets,
    referenceDate: REFERENCE_DATE,
    grid: { cols: layout.grid.cols, rows: layout.grid.rows, cellM: CELL_M, southWest: GRID_ORIGIN },
    counts,
    tiles: layout.tiles.map((t) => ({
      tile: t.index,
      row: t.cell.row,
      col: t.cell.col,
      streets: t.city,
      feeds: t.feeds.map((f) => ({ zip: `gtfs/${f.name}.zip`, source: f.survey.feed.name, shiftDays: f.survey.shiftDays })),
      station: { stop_id: stationId(t.index), lon: e7Text(t.station[0]), lat: e7Text(t.station[1]), for: t.mainStop ?? null },
    })),
  };
}
