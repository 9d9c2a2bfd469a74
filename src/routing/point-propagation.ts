/**
 * A map's last step at the points of a set (R5's PerTargetPropagater for its point sets:
 * accessibility, travel-time matrices): each point valued at its own link as a cell is at its
 * centre's, from the centre by the street alone (each direct leg within its mode's
 * max_<mode>_duration_to_pt, mode-legs.ts) and from the stops of the transit pass through the egress
 * tables (egress-table.ts), the smallest value kept; whole seconds, null at or past the maximum
 * duration.
 *
 * Scratch per engine, grown to the largest set valued; the egress tables made last kept for the
 * next computations alike (the origins of a matrix). A query whose overlay has new stops uses the
 * timetable's table and a small one of the new stops beside it, kept per overlay for the next
 * computations on it.
 */
import type { Layer } from '../model/street-layers.js';
import { pointCount, type LinkedPoints } from '../model/linked-points.js';
import { toSeconds } from './raster.js';
import { buildEgressTable, egressTableBytes, MAX_EGRESS_ENTRIES, sameEgressKey, valueFromStops, type EgressKey, type EgressTable } from './egress-table.js';
import type { StreetSearch } from './street-search.js';
import { centreSnaps, countUnlinked, streetLegs } from './street-legs.js';
import { directLimitDs, mapLegs, type ModeLeg } from './mode-legs.js';
import { NO_TRANSIT, type TransitPass } from './transit-pass.js';
import type { HeatMapData, HeatMapQuery, PointTimes } from './heat-map-types.js';
import { newStopSnaps, stopsOf, type OverlayStops } from './overlay-stops.js';

/** Egress tables an engine keeps at most (a matrix uses one or two; requests for other speeds or limits make theirs), within MAX_EGRESS_ENTRIES together. */
const EGRESS_TABLES_KEPT = 4;
/** Tables of overlays' new stops an engine keeps at most (a few scenarios in use, a leg or two each; a few thousand entries each). */
const NEW_STOP_TABLES_KEPT = 8;

export class PointPropagation {
  /** the points' values and seconds, grown to the largest set valued */
  private pointValues = new Float64Array(0);
  private pointSeconds = new Int32Array(0);
  /** the egress tables made last, the latest first */
  private readonly baseTables: EgressTable[] = [];
  /** the tables of overlays' new stops made last, the latest first, with the id of their stops */
  private readonly newStopTables: { stopsId: string; table: EgressTable }[] = [];

  constructor(
    private readonly data: HeatMapData,
    /** the engine's street search, lent to the direct legs and to the tables made */
    private readonly street: StreetSearch,
  ) {}

  /** The travel times of `q` to `points` from its centre and from the stops of `pass`. */
  timesAt(q: HeatMapQuery, pass: TransitPass, points: LinkedPoints): PointTimes {
    const legs = mapLegs(q);
    const count = pointCount(points);
    if (this.pointValues.length < count) {
      this.pointValues = new Float64Array(count);
      this.pointSeconds = new Int32Array(count);
    }
    const values = this.pointValues.subarray(0, count);
    values.fill(Infinity);
    const walkSpeed = q.speeds.walking;
    const reverse = q.direction === 'arrival';
    const limitDs = q.maxDurationSec * 10;
    // the street from the centre alone, then the stops' rows
    const direct = legs.filter((leg) => leg.fromCentre);
    const snaps = centreSnaps(this.data.graph, q, direct);
    const value = (leg: ModeLeg, search: StreetSearch, legLimitDs: number) => valuePoints(points, leg.layer, leg.speed, walkSpeed, reverse, legLimitDs, search, values);
    const stops = stopsOf(this.data, q);
    streetLegs(this.street, stops.snaps, q, NO_TRANSIT, direct, snaps, value, (leg) => directLimitDs(leg, limitDs));
    const { vehicleSec, reached, reachedCount } = pass;
    if (vehicleSec) {
      for (const leg of legs) {
        if (!leg.fromStops) continue;
        for (const table of this.egressTables(points, leg, q)) valueFromStops(table, reached, reachedCount, vehicleSec, leg.extraDs, limitDs, values);
      }
    }
    const seconds = this.pointSeconds.subarray(0, count);
    const reachedPoints = toSeconds(values, q.maxDurationSec, seconds);
    const vehicleStops = vehicleSec ? reachedCount : 0;
    return { seconds, reachedPoints, vehicleStops, unlinkedStops: countUnlinked(stops.snaps, legs, reached, vehicleStops) };
  }

  /** The egress tables of a leg of `q` to the points of a set: the timetable's stops', and the overlay's new stops' when it has some. */
  egressTables(points: LinkedPoints, leg: ModeLeg, q: HeatMapQuery): EgressTable[] {
    const key = egressKey(points, leg, q);
    const base = this.egressTable(key);
    const added = q.overlay?.stops;
    return added ? [base, this.newStopTable(added, key)] : [base];
  }

  /** The bytes of the egress tables kept, the timetable's and the overlays' new stops'. */
  get egressBytes(): number {
    return this.baseTables.reduce((sum, t) => sum + egressTableBytes(t), 0) + this.newStopTables.reduce((sum, t) => sum + egressTableBytes(t.table), 0);
  }

  /**
   * Drop the egress tables used longest ago until those kept hold at most `maxBytes`, the
   * timetable's served first, then the overlays' new stops' with what is left (the latest used of
   * each is kept whatever its size: the next origin of a matrix reads it). The engine cache asks it
   * when its thread's cache is past its bound (service/engine-cache.ts).
   */
  trimEgressTables(maxBytes: number): void {
    const kept = keepWithin(this.baseTables, maxBytes, egressTableBytes);
    keepWithin(this.newStopTables, maxBytes - kept, (t) => egressTableBytes(t.table));
  }

  /**
   * The timetable's egress table of `key` (egress-table.ts): made on first use and kept for the next
   * computations alike (the origins of a matrix), the last few of them.
   */
  private egressTable(key: EgressKey): EgressTable {
    const known = latestFirst(this.baseTables, (t) => sameEgressKey(t, key));
    if (known) return known;
    const table = buildEgressTable(this.data.graph, this.data.snaps, key, this.street);
    this.keepTable(table);
    return table;
  }

  /** Keep the timetable's egress table `table`, made by another thread (a matrix's first step), unless one of its key is held. */
  adoptEgressTable(table: EgressTable): void {
    if (table.firstStop !== 0 || this.baseTables.some((t) => sameEgressKey(t, table))) return;
    this.keepTable(table);
  }

  private keepTable(table: EgressTable): void {
    this.baseTables.unshift(table);
    // the newest kept, and older ones while they fit in one table's budget
    let entries = 0;
    const kept = this.baseTables.findIndex((t, k) => (entries += t.point.length) > MAX_EGRESS_ENTRIES && k > 0);
    if (kept > 0) this.baseTables.length = kept;
    if (this.baseTables.length > EGRESS_TABLES_KEPT) this.baseTables.length = EGRESS_TABLES_KEPT;
  }

  /** The egress table of `key` for the new stops of an overlay, beside the timetable's: made on first use and kept, the last few. */
  private newStopTable(stops: OverlayStops, key: EgressKey): EgressTable {
    const known = latestFirst(this.newStopTables, (t) => t.stopsId === stops.id && sameEgressKey(t.table, key));
    if (known) return known.table;
    const table = buildEgressTable(this.data.graph, newStopSnaps(stops), key, this.street, stops.baseCount);
    this.newStopTables.unshift({ stopsId: stops.id, table });
    if (this.newStopTables.length > NEW_STOP_TABLES_KEPT) this.newStopTables.length = NEW_STOP_TABLES_KEPT;
    return table;
  }
}

/** Cut `list` (the latest used first) after the entries that fit in `maxBytes`, the first kept whatever its size; the bytes kept. */
function keepWithin<T>(list: T[], maxBytes: number, bytesOf: (t: T) => number): number {
  let bytes = 0;
  for (let k = 0; k < list.length; k++) {
    const next = bytes + bytesOf(list[k]!);
    if (next > maxBytes && k > 0) {
      list.length = k;
      break;
    }
    bytes = next;
  }
  return bytes;
}

/** The egress table's key of a leg of `q` to the points of a set. */
function egressKey(points: LinkedPoints, leg: ModeLeg, q: HeatMapQuery): EgressKey {
  return {
    points,
    layer: leg.layer,
    speed: leg.speed,
    walkSpeed: q.speeds.walking,
    limitDs: Math.max(0, Math.min(leg.toPtSec, q.maxDurationSec)) * 10,
    reverse: q.direction === 'arrival',
  };
}

/** The entry of `list` that `matches`, moved to its front (the latest used first: a request over several sets and legs keeps its own tables). */
function latestFirst<T>(list: T[], matches: (t: T) => boolean): T | undefined {
  const known = list.findIndex(matches);
  if (known < 0) return undefined;
  const [found] = list.splice(known, 1);
  list.unshift(found!);
  return found;
}

/**
 * Value each point of a set linked to `layer` from a street search, as raster.ts values a cell:
 * the cost at its link point plus its off-street offset at walking speed, the smaller one kept.
 */
export function valuePoints(points: LinkedPoints, layer: Layer, speed: number, walkSpeed: number, reverse: boolean, limitDs: number, search: StreetSearch, out: Float64Array): void {
  const edge = points.links.edge[layer]!;
  const alongM = points.links.alongM[layer]!;
  const offsetM = points.links.offsetM[layer]!;
  const perMetre = 10 / speed;
  const walkPerMetre = 10 / walkSpeed;
  for (let p = 0; p < edge.length; p++) {
    const e = edge[p]!;
    if (e < 0) continue;
    const v = search.costAlong(e, alongM[p]!, layer, perMetre, reverse) + offsetM[p]! * walkPerMetre;
    if (v < limitDs && v < out[p]!) out[p] = v;
  }
}
