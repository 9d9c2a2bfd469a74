/**
 * A map's first step, the access (R5's access search before its FastRaptorWorker): the stops a
 * traveller reaches from the centre (departure maps) or from which the centre is reached (arrival
 * maps), each with the best time over the ways in:
 *
 *   - the centre's own stops (free), and the stops their connections reach (a platform across the
 *     street is one transfer away);
 *   - the stops within the free radius (free);
 *   - per access mode, the stops a street search from the centre reaches within the mode's limit;
 *     a car's continues on foot from wherever it may park.
 *
 * A query whose overlay has new stops (overlay-stops.ts) finds them as it finds the timetable's: its
 * stops, positions, links and connections are the overlay's (`stopsOf`).
 *
 * Scratch allocated once per engine, with room for an overlay's new stops; a stop's best time is
 * reset through a round stamp.
 */
import { Layer } from '../model/street-layers.js';
import type { StopSnaps } from '../model/stop-snaps.js';
import { METRES_PER_DEGREE } from '../util/geodesy.js';
import { LINK_RADIUS_M, snapPoint } from '../model/street-graph.js';
import { footpathSec, transferSec } from './raptor-data.js';
import { accessLegs, type AccessLeg } from './mode-legs.js';
import { offsetSeedDs, StreetSearch } from './street-search.js';
import { connectionRows, MAX_OVERLAY_STOPS, stopAllowedAt, stopsOf, type OverlayStops } from './overlay-stops.js';
import type { HeatMapData, HeatMapQuery } from './heat-map-types.js';
import { stopsAtVerticesOf, type StopsAtVertices } from './stops-at-vertices.js';

export class AccessSearch {
  /** per stop: the best time found, valid when its stamp is this round's */
  private readonly bestSec: Int32Array;
  private readonly stamp: Uint32Array;
  private round = 0;
  /** the stops the last `run` found, and their times (its first `count` entries): RAPTOR's round 0 */
  readonly stops: Uint32Array;
  readonly times: Int32Array;
  /** the walk after a parked car, made by the first car access (a search's arrays: 1.8 GB on a country) */
  private parkedWalk: StreetSearch | null = null;
  /** the timetable's stops by the vertices of their edges, and the stops a search may reach */
  private readonly atVertices: StopsAtVertices;
  private readonly candidates: Uint32Array;

  constructor(
    private readonly data: HeatMapData,
    /** the engine's street search, lent to the access legs */
    private readonly street: StreetSearch,
    private readonly maxDurationSec: number,
  ) {
    const stops = data.stopLon.length + MAX_OVERLAY_STOPS;
    this.bestSec = new Int32Array(stops);
    this.stamp = new Uint32Array(stops);
    this.stops = new Uint32Array(stops);
    this.times = new Int32Array(stops);
    this.atVertices = stopsAtVerticesOf(data.graph, data.snaps);
    this.candidates = new Uint32Array(data.stopLon.length);
  }

  /**
   * Fill `stops`/`times` with the stops reachable from the centre (departure) or from which the
   * centre is reachable (arrival), with the best time over the access modes. Returns their count.
   */
  run(q: HeatMapQuery, cx: number, cy: number, reverse: boolean): number {
    const round = ++this.round;
    const best = this.bestSec;
    const stamp = this.stamp;
    let count = 0;
    const offer = (s: number, sec: number) => {
      if (!stopAllowedAt(q.stopAllowed, s)) return;
      if (stamp[s] !== round) {
        stamp[s] = round;
        best[s] = sec;
        this.stops[count++] = s;
      } else if (sec < best[s]!) best[s] = sec;
    };
    for (const s of q.freeStops) offer(s, 0);
    this.freeConnections(q, reverse, offer);
    if (q.freeRadiusM > 0) this.freeRadius(q, offer);
    for (const mode of q.accessModes) {
      const limitSec = q.maxToPtSec[mode];
      if (!(limitSec > 0)) continue;
      const extraSec = mode === 'taxi' ? q.taxiAccessExtraSec : 0;
      for (const leg of accessLegs(mode, q)) this.streetAccess(q, leg, limitSec, extraSec, cx, cy, reverse, offer);
    }
    for (let k = 0; k < count; k++) this.times[k] = best[this.stops[k]!]!;
    return count;
  }

  /** The connections of the centre's own stops: a platform across the street is one transfer away. */
  private freeConnections(q: HeatMapQuery, reverse: boolean, offer: (s: number, sec: number) => void): void {
    const { raptor } = this.data;
    const added = q.overlay?.stops ?? null;
    for (const s of q.freeStops) {
      if (added) overlayConnections(added, s, q.speeds.walking, reverse, offer);
      if (s >= raptor.stopCount) continue;
      if (reverse) {
        for (let k = raptor.transferInOffset[s]!; k < raptor.transferInOffset[s + 1]!; k++) {
          offer(raptor.transferInFrom[k]!, transferSec(raptor, raptor.transferInEdge[k]!, q.speeds.walking));
        }
      } else {
        for (let k = raptor.transferOffset[s]!; k < raptor.transferOffset[s + 1]!; k++) offer(raptor.transferTo[k]!, transferSec(raptor, k, q.speeds.walking));
      }
    }
  }

  /** The stops within the free radius of the centre, at no cost. */
  private freeRadius(q: HeatMapQuery, offer: (s: number, sec: number) => void): void {
    const { count, lon, lat } = stopsOf(this.data, q);
    const cosLat = Math.cos((q.centreLat * Math.PI) / 180);
    for (let s = 0; s < count; s++) {
      const dx = (lon[s]! - q.centreLon) * METRES_PER_DEGREE * cosLat;
      const dy = (lat[s]! - q.centreLat) * METRES_PER_DEGREE;
      if (dx * dx + dy * dy <= q.freeRadiusM * q.freeRadiusM) offer(s, 0);
    }
  }

  /** Stops reached by one access leg; a car leg continues on foot from wherever it may park. */
  private streetAccess(q: HeatMapQuery, leg: AccessLeg, limitSec: number, extraSec: number, cx: number, cy: number, reverse: boolean, offer: (s: number, sec: number) => void): void {
    const { graph } = this.data;
    const limitDs = Math.min(limitSec, this.maxDurationSec) * 10;
    const search = this.street;
    search.reset();
    const snap = snapPoint(graph, leg.layer, cx, cy, LINK_RADIUS_M);
    // no street within the link radius: nothing to walk or ride on
    if (!snap) return;
    search.seedSnap(snap, leg.layer, leg.speed, offsetSeedDs(snap.offsetM, leg.walkSpeed), reverse);
    search.run(leg.layer, leg.speed, limitDs, reverse);
    const { snaps } = stopsOf(this.data, q);
    if (leg.parkThenWalk) this.offerStops(snaps, this.walkFromParking(search, leg, limitDs, reverse), Layer.Walk, leg.walkSpeed, leg, limitDs, extraSec, reverse, offer);
    else this.offerStops(snaps, search, leg.layer, leg.speed, leg, limitDs, extraSec, reverse, offer);
  }

  /** Leave the car at any vertex where parking is allowed, then walk (both legs within the limit). */
  private walkFromParking(drive: StreetSearch, leg: AccessLeg, limitDs: number, reverse: boolean): StreetSearch {
    const { graph } = this.data;
    const walk = (this.parkedWalk ??= new StreetSearch(graph, this.maxDurationSec * 10));
    walk.reset();
    for (let k = 0; k < drive.touchedCount; k++) {
      const v = drive.touched[k]!;
      if (graph.vertexParkable[v]) walk.seed(v, drive.costOf(v));
    }
    walk.run(Layer.Walk, leg.walkSpeed, limitDs, reverse);
    return walk;
  }

  /**
   * Offer every stop linked to `layer` that `search` reaches within the limit, in stop order: the
   * cost at its link point plus its offset on foot. The timetable's stops are read only where the
   * search reached their edges; an overlay's, all of them.
   */
  private offerStops(snaps: StopSnaps, search: StreetSearch, layer: Layer, speed: number, leg: AccessLeg, limitDs: number, extraSec: number, reverse: boolean, offer: (s: number, sec: number) => void): void {
    const edges = snaps.edge[layer]!;
    const along = snaps.alongM[layer]!;
    const offsets = snaps.offsetM[layer]!;
    const perMetre = 10 / speed;
    const walkDsPerMetre = 10 / leg.walkSpeed;
    const visit = (s: number) => {
      if (edges[s]! < 0) return;
      const ds = search.costAlong(edges[s]!, along[s]!, layer, perMetre, reverse) + offsets[s]! * walkDsPerMetre;
      if (ds <= limitDs) offer(s, Math.trunc(ds / 10) + extraSec);
    };
    if (snaps === this.atVertices.snaps) {
      const candidates = this.candidates;
      const count = this.atVertices.reachedBy(search, layer, candidates);
      for (let k = 0; k < count; k++) visit(candidates[k]!);
    } else for (let s = 0; s < edges.length; s++) visit(s);
  }
}

/** An overlay's connections from stop s (reverse: to it), each offered at its walk: a new stop's, or a timetable stop's to or from a new one. */
function overlayConnections(stops: OverlayStops, s: number, walkingSpeed: number, reverse: boolean, offer: (s: number, sec: number) => void): void {
  const { offset, other, lengthM } = connectionRows(stops, reverse);
  for (let k = offset[s]!; k < offset[s + 1]!; k++) offer(other[k]!, footpathSec(lengthM[k]!, walkingSpeed));
}
