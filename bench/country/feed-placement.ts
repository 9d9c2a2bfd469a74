/**
 * Where a tile's stops, shapes and intercity station go.
 *
 * A city's own feed keeps its places: the tile transform (grid.ts) moves its stops and shapes with
 * the streets. A timetable-only feed (NYC, Bydgoszcz, Tampa, WMATA) is laid on another city's streets:
 * the box of its stops is mapped onto the box of the extract's nodes (each axis stretched on its
 * own), and each stop then moves to the nearest node of the extract's largest walking network
 * (walk-nodes.ts), so that every stop stands on a street Navette walks; shapes are only mapped.
 * Several stops may share a node.
 *
 * A tile's intercity station stands on the node of the largest walking network nearest its main
 * station (the stop with the most stop times, feed-survey.ts), or, on a tile with streets only,
 * nearest the centre of the extract's box.
 */
import type { TileTransform } from './grid.js';
import type { StreetSource } from './street-source.js';
import type { WalkNodes } from './walk-nodes.js';

/** A position in 1e-7° units: [lon, lat]. */
export type PointE7 = [number, number];

export class FeedPlacement {
  /**
   * `feedBox`: the feed's stops' box when the feed is laid on streets not its own (stretched onto
   * the extract's box); none for a city's own feed.
   */
  constructor(
    private readonly streets: StreetSource,
    private readonly walkNodes: WalkNodes,
    private readonly transform: TileTransform,
    private readonly feedBox?: readonly [number, number, number, number],
  ) {}

  /** A stop of the feed, degrees in. */
  stop(lon: number, lat: number): PointE7 {
    if (!this.feedBox) return this.moved(lon, lat);
    const [x, y] = this.onStreets(lon, lat);
    return this.node(this.walkNodes.nearest(x, y));
  }

  /** A shape point of the feed, degrees in. */
  shape(lon: number, lat: number): PointE7 {
    return this.moved(...this.onStreets(lon, lat));
  }

  /** The intercity station of a tile whose main station is at (lon, lat) in its feed; none: a tile with streets only. */
  station(mainStop?: { lon: number; lat: number }): PointE7 {
    const [x, y] = mainStop ? this.onStreets(mainStop.lon, mainStop.lat) : [this.streets.centre.lon, this.streets.centre.lat];
    return this.node(this.walkNodes.nearest(x, y));
  }

  /** Node k of the extract, moved into the tile (the PBF writes it at the same place). */
  node(k: number): PointE7 {
    return this.moved(this.streets.a.lon[k]!, this.streets.a.lat[k]!);
  }

  /** A feed's position on the extract's own coordinates. */
  private onStreets(lon: number, lat: number): [number, number] {
    const box = this.feedBox;
    if (!box) return [lon, lat];
    const [west, south, east, north] = this.streets.bbox;
    return [west + ((lon - box[0]) / (box[2] - box[0])) * (east - west), south + ((lat - box[1]) / (box[3] - box[1])) * (north - south)];
  }

  private moved(lon: number, lat: number): PointE7 {
    return [this.transform.lonE7(lon), this.transform.latE7(lat)];
  }
}
