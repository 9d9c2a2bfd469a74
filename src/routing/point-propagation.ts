/**
 * A map's last step at the points of a set (R5's PerTargetPropagater for its point sets:
 * accessibility, travel-time matrices): each point valued at its own link as a cell is at its
 * centre's, from the centre by the street alone (each direct leg within its mode's
 * max_<mode>_duration_to_pt, mode-legs.ts) and from the stops of the transit pass through the egress
 * tables (egress-table.ts), the smallest value kept; whole seconds, null at or past the maximum
 * duration.
 *
 * Scratch per engine, grown to the largest set valued; the egress tables made last kept for the
 * next computations alike (the origins of a matrix).
 */
import type { Layer } from '../model/street-layers.js';
import { pointCount, type LinkedPoints } from '../model/linked-points.js';
import { toSeconds } from './raster.js';
import { buildEgressTable, MAX_EGRESS_ENTRIES, sameEgressKey, valueFromStops, type EgressKey, type EgressTable } from './egress-table.js';
import type { StreetSearch } from './street-search.js';
import { centreSnaps, countUnlinked, streetLegs } from './street-legs.js';
import { directLimitDs, mapLegs, type ModeLeg } from './mode-legs.js';
import { NO_TRANSIT, type TransitPass } from './transit-pass.js';
import type { HeatMapData, HeatMapQuery, PointTimes } from './heat-map-types.js';

/** Egress tables an engine keeps at most (a matrix uses one or two; requests for other speeds or limits make theirs), within MAX_EGRESS_ENTRIES together. */
const EGRESS_TABLES_KEPT = 4;

export class PointPropagation {
  /** the points' values and seconds, grown to the largest set valued */
  private pointValues = new Float64Array(0);
  private pointSeconds = new Int32Array(0);
  /** the egress tables made last, the latest first */
  private readonly egressTables: EgressTable[] = [];

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
    streetLegs(this.street, this.data.snaps, q, NO_TRANSIT, direct, snaps, value, (leg) => directLimitDs(leg, limitDs));
    const { vehicleSec, reached, reachedCount } = pass;
    if (vehicleSec) for (const leg of legs) if (leg.fromStops) valueFromStops(this.egressTable(points, leg, q), reached, reachedCount, vehicleSec, leg.extraDs, limitDs, values);
    const seconds = this.pointSeconds.subarray(0, count);
    const reachedPoints = toSeconds(values, q.maxDurationSec, seconds);
    const vehicleStops = vehicleSec ? reachedCount : 0;
    return { seconds, reachedPoints, vehicleStops, unlinkedStops: countUnlinked(this.data.snaps, legs, reached, vehicleStops) };
  }

  /**
   * The egress table of a leg of `q` to the points of a set (egress-table.ts): made on first use
   * and kept for the next computations alike (the origins of a matrix), the last few of them.
   */
  egressTable(points: LinkedPoints, leg: ModeLeg, q: HeatMapQuery): EgressTable {
    const key: EgressKey = {
      points,
      layer: leg.layer,
      speed: leg.speed,
      walkSpeed: q.speeds.walking,
      limitDs: Math.max(0, Math.min(leg.toPtSec, q.maxDurationSec)) * 10,
      reverse: q.direction === 'arrival',
    };
    const known = this.egressTables.findIndex((t) => sameEgressKey(t, key));
    if (known >= 0) {
      // the latest used first: a request over several sets and legs keeps its own tables
      const [table] = this.egressTables.splice(known, 1);
      this.egressTables.unshift(table!);
      return table!;
    }
    const table = buildEgressTable(this.data.graph, this.data.snaps, key, this.street);
    this.egressTables.unshift(table);
    // the newest kept, and older ones while they fit in one table's budget
    let entries = 0;
    const kept = this.egressTables.findIndex((t, k) => (entries += t.point.length) > MAX_EGRESS_ENTRIES && k > 0);
    if (kept > 0) this.egressTables.length = kept;
    if (this.egressTables.length > EGRESS_TABLES_KEPT) this.egressTables.length = EGRESS_TABLES_KEPT;
    return table;
  }
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
