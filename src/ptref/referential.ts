/**
 * The public-transport referential over a Timetable: for every object type, its ids, names and
 * the links to trips, so that any set of objects converts to the trips it concerns and back.
 *
 * Conversions go through trips (in the base schedule, vehicle journey i is trip i), like Navitia's
 * type graph goes through vehicle journeys, with direct links where the hierarchy gives one
 * (stop area ↔ stop point, network ↔ line ↔ route).
 */
import KDBush from 'kdbush';
import { csrRow, groupBy, groupByMany, type Csr } from '../model/csr.js';
import { ServiceDays } from '../model/service-days.js';
import type { Timetable } from '../model/timetable.js';
import { crowFlyMetres, degreesAround } from '../util/geodesy.js';
import type { Caption } from './object-types.js';
import { EMPTY, IndexCollector, range } from './sorted-set.js';


export class Referential {
  readonly days: ServiceDays;
  /** Trips of each line, route, agency, physical mode, commercial mode, pattern, feed, service. */
  private readonly tripsOf: Partial<Record<Caption, Csr>> = {};
  /** Patterns serving each stop point; stop points of each stop area. */
  private readonly stopPatterns: Csr;
  private readonly areaStops: Csr;
  private readonly lineRoutes: Csr;
  private readonly agencyLines: Csr;
  private readonly idMaps = new Map<Caption, Map<string, number>>();
  private readonly allSets = new Map<Caption, Uint32Array>();
  private readonly collectors = new Map<Caption, IndexCollector>();
  private readonly stopPointIndex: KDBush;
  private readonly stopAreaIndex: KDBush;
  /** Bit L set when the line has a trip of ODT level L. */
  readonly lineOdtLevels: Uint8Array;

  constructor(readonly tt: Timetable) {
    const { trips, lines, stopPoints, patterns } = tt;
    const n = trips.ids.length;
    this.days = new ServiceDays(tt);
    const line = trips.line;
    this.tripsOf.line = groupBy(n, lines.length, (t) => line[t]!);
    this.tripsOf.route = groupBy(n, tt.routes.length, (t) => trips.route[t]!);
    this.tripsOf.network = groupBy(n, tt.agencies.length, (t) => trips.agency[t]!);
    this.tripsOf.company = this.tripsOf.network;
    this.tripsOf.physical_mode = groupBy(n, tt.physicalModes.length, (t) => lines[line[t]!]!.physicalMode);
    this.tripsOf.commercial_mode = groupBy(n, tt.commercialModes.length, (t) => lines[line[t]!]!.commercialMode);
    this.tripsOf.journey_pattern = groupBy(n, patterns.stopOffset.length - 1, (t) => trips.pattern[t]!);
    this.tripsOf.dataset = groupBy(n, tt.feeds.length, (t) => trips.feed[t]!);
    this.tripsOf.contributor = this.tripsOf.dataset;
    this.tripsOf.validity_pattern = groupBy(n, tt.services.ids.length, (t) => trips.service[t]!);
    const patternCount = patterns.stopOffset.length - 1;
    this.stopPatterns = groupByMany(patternCount, stopPoints.ids.length, (p, add) => {
      const s = patterns.stopOffset[p]!;
      const e = patterns.stopOffset[p + 1]!;
      for (let i = s; i < e; i++) {
        const stop = patterns.stops[i]!;
        // A pattern may pass a stop twice (loops): add it once.
        let seen = false;
        for (let j = s; j < i; j++) if (patterns.stops[j] === stop) seen = true;
        if (!seen) add(stop);
      }
    });
    this.areaStops = groupBy(stopPoints.ids.length, tt.stopAreas.length, (s) => stopPoints.area[s]!);
    this.lineRoutes = groupBy(tt.routes.length, lines.length, (r) => tt.routes[r]!.line);
    this.agencyLines = groupBy(lines.length, tt.agencies.length, (l) => lines[l]!.agency);
    this.lineOdtLevels = new Uint8Array(lines.length);
    for (let t = 0; t < n; t++) this.lineOdtLevels[line[t]!]! |= 1 << trips.odtLevel[t]!;

    this.stopPointIndex = new KDBush(Math.max(1, stopPoints.ids.length));
    for (let s = 0; s < stopPoints.ids.length; s++) this.stopPointIndex.add(stopPoints.lon[s]!, stopPoints.lat[s]!);
    if (stopPoints.ids.length === 0) this.stopPointIndex.add(0, 0);
    this.stopPointIndex.finish();
    this.stopAreaIndex = new KDBush(Math.max(1, tt.stopAreas.length));
    for (const a of tt.stopAreas) this.stopAreaIndex.add(a.lon, a.lat);
    if (tt.stopAreas.length === 0) this.stopAreaIndex.add(0, 0);
    this.stopAreaIndex.finish();
  }

  /** Number of objects of a type (0 for the types our data never has, like POIs). */
  count(type: Caption): number {
    const tt = this.tt;
    switch (type) {
      case 'trip':
      case 'vehicle_journey':
        return tt.trips.ids.length;
      case 'line':
        return tt.lines.length;
      case 'route':
        return tt.routes.length;
      case 'network':
      case 'company':
        return tt.agencies.length;
      case 'stop_point':
        return tt.stopPoints.ids.length;
      case 'stop_area':
        return tt.stopAreas.length;
      case 'physical_mode':
        return tt.physicalModes.length;
      case 'commercial_mode':
        return tt.commercialModes.length;
      case 'journey_pattern':
        return tt.patterns.stopOffset.length - 1;
      case 'dataset':
      case 'contributor':
        return tt.feeds.length;
      case 'validity_pattern':
        return tt.services.ids.length;
      default:
        return 0;
    }
  }

  /** Id of object `i` of a type. */
  id(type: Caption, i: number): string {
    const tt = this.tt;
    switch (type) {
      case 'trip':
        return tt.trips.ids[i]!;
      case 'vehicle_journey':
        return `vehicle_journey:${tt.trips.ids[i]!}`;
      case 'line':
        return tt.lines[i]!.id;
      case 'route':
        return tt.routes[i]!.id;
      case 'network':
      case 'company':
        return tt.agencies[i]!.id;
      case 'stop_point':
        return tt.stopPoints.ids[i]!;
      case 'stop_area':
        return tt.stopAreas[i]!.id;
      case 'physical_mode':
        return tt.physicalModes[i]!.id;
      case 'commercial_mode':
        return tt.commercialModes[i]!.id;
      case 'journey_pattern':
        return `journey_pattern:${i}`;
      case 'dataset':
      case 'contributor':
        return tt.feeds[i]!.key;
      case 'validity_pattern':
        return tt.services.ids[i]!;
      default:
        return '';
    }
  }

  /** Name of object `i` of a type. */
  name(type: Caption, i: number): string {
    const tt = this.tt;
    switch (type) {
      case 'trip':
        return tt.trips.names[i]!;
      case 'vehicle_journey':
        return tt.trips.names[i]!;
      case 'line':
        return tt.lines[i]!.name;
      case 'route':
        return tt.routes[i]!.name;
      case 'network':
      case 'company':
        return tt.agencies[i]!.name;
      case 'stop_point':
        return tt.stopPoints.names[i]!;
      case 'stop_area':
        return tt.stopAreas[i]!.name;
      case 'physical_mode':
        return tt.physicalModes[i]!.name;
      case 'commercial_mode':
        return tt.commercialModes[i]!.name;
      case 'dataset':
      case 'contributor':
        return tt.feeds[i]!.publisherName || tt.feeds[i]!.key;
      default:
        return this.id(type, i);
    }
  }

  /** Index of the object of a type with this id, or -1. */
  indexOf(type: Caption, id: string): number {
    let map = this.idMaps.get(type);
    if (!map) {
      map = new Map();
      const n = this.count(type);
      for (let i = 0; i < n; i++) if (!map.has(this.id(type, i))) map.set(this.id(type, i), i);
      this.idMaps.set(type, map);
    }
    return map.get(id) ?? -1;
  }

  /** Every object of a type, ascending (shared array: do not modify). */
  all(type: Caption): Uint32Array {
    let set = this.allSets.get(type);
    if (!set) this.allSets.set(type, (set = range(this.count(type))));
    return set;
  }

  /** A reusable collector over the objects of a type. */
  collector(type: Caption): IndexCollector {
    let c = this.collectors.get(type);
    if (!c) this.collectors.set(type, (c = new IndexCollector(Math.max(1, this.count(type)))));
    return c;
  }

  /** Convert a set of objects of type `from` to the related objects of type `to`. */
  convert(from: Caption, to: Caption, set: Uint32Array): Uint32Array {
    if (set.length === 0) return EMPTY;
    if (from === to || (isTripLike(from) && isTripLike(to))) return set;
    if (from === 'stop_area' && to === 'stop_point') return this.unionOfRows(this.areaStops, set, 'stop_point');
    if (from === 'stop_point' && to === 'stop_area') return this.mapEach(set, 'stop_area', (s) => this.tt.stopPoints.area[s]!);
    if (from === 'line' && to === 'route') return this.unionOfRows(this.lineRoutes, set, 'route');
    if (from === 'route' && to === 'line') return this.mapEach(set, 'line', (r) => this.tt.routes[r]!.line);
    if ((from === 'network' || from === 'company') && to === 'line') return this.unionOfRows(this.agencyLines, set, 'line');
    if (from === 'line' && (to === 'network' || to === 'company')) return this.mapEach(set, to, (l) => this.tt.lines[l]!.agency);
    return this.fromTrips(to, this.toTrips(from, set));
  }

  /** Trips related to a set of objects, ascending. */
  toTrips(type: Caption, set: Uint32Array): Uint32Array {
    if (isTripLike(type)) return set;
    if (type === 'stop_area') return this.toTrips('stop_point', this.unionOfRows(this.areaStops, set, 'stop_point'));
    if (type === 'stop_point') {
      const patterns = this.unionOfRows(this.stopPatterns, set, 'journey_pattern');
      return this.unionOfRows(this.tripsOf.journey_pattern!, patterns, 'trip');
    }
    const csr = this.tripsOf[type];
    if (!csr) return EMPTY;
    return this.unionOfRows(csr, set, 'trip');
  }

  /** Objects of a type related to a set of trips, ascending. */
  fromTrips(type: Caption, trips: Uint32Array): Uint32Array {
    const tt = this.tt;
    const t = tt.trips;
    switch (type) {
      case 'trip':
      case 'vehicle_journey':
        return trips;
      case 'line':
        return this.mapEach(trips, type, (i) => t.line[i]!);
      case 'route':
        return this.mapEach(trips, type, (i) => t.route[i]!);
      case 'network':
      case 'company':
        return this.mapEach(trips, type, (i) => t.agency[i]!);
      case 'physical_mode':
        return this.mapEach(trips, type, (i) => tt.lines[t.line[i]!]!.physicalMode);
      case 'commercial_mode':
        return this.mapEach(trips, type, (i) => tt.lines[t.line[i]!]!.commercialMode);
      case 'journey_pattern':
        return this.mapEach(trips, type, (i) => t.pattern[i]!);
      case 'dataset':
      case 'contributor':
        return this.mapEach(trips, type, (i) => t.feed[i]!);
      case 'validity_pattern':
        return this.mapEach(trips, type, (i) => t.service[i]!);
      case 'stop_point': {
        const patterns = this.fromTrips('journey_pattern', trips);
        const c = this.collector('stop_point');
        const { stopOffset, stops } = tt.patterns;
        for (let k = 0; k < patterns.length; k++) {
          const p = patterns[k]!;
          for (let i = stopOffset[p]!; i < stopOffset[p + 1]!; i++) c.add(stops[i]!);
        }
        return c.take();
      }
      case 'stop_area':
        return this.convert('stop_point', 'stop_area', this.fromTrips('stop_point', trips));
      default:
        return EMPTY;
    }
  }

  /** Stop points (or areas) within `distanceM` metres of a point, ascending. */
  within(type: 'stop_point' | 'stop_area', lon: number, lat: number, distanceM: number): Uint32Array {
    if (!(distanceM >= 0) || (type === 'stop_point' ? this.tt.stopPoints.ids.length : this.tt.stopAreas.length) === 0) return EMPTY;
    // the box around the circle, a little wider so that the haversine below decides at the edge
    const { dLon, dLat } = degreesAround(lat, distanceM * 1.001);
    const index = type === 'stop_point' ? this.stopPointIndex : this.stopAreaIndex;
    const candidates = index.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
    const c = this.collector(type);
    for (const i of candidates) {
      const [x, y] = type === 'stop_point' ? [this.tt.stopPoints.lon[i]!, this.tt.stopPoints.lat[i]!] : [this.tt.stopAreas[i]!.lon, this.tt.stopAreas[i]!.lat];
      if (crowFlyMetres(lon, lat, x, y) <= distanceM) c.add(i);
    }
    return c.take();
  }

  /** Union of CSR rows of the given groups; a single group's row is returned as is (no copy). */
  private unionOfRows(csr: Csr, groups: Uint32Array, itemType: Caption): Uint32Array {
    if (groups.length === 0) return EMPTY;
    if (groups.length === 1) return csrRow(csr, groups[0]!);
    const c = this.collector(itemType);
    for (let k = 0; k < groups.length; k++) c.addAll(csrRow(csr, groups[k]!));
    return c.take();
  }

  private mapEach(set: Uint32Array, type: Caption, f: (i: number) => number): Uint32Array {
    const c = this.collector(type);
    for (let k = 0; k < set.length; k++) c.add(f(set[k]!));
    return c.take();
  }
}

function isTripLike(type: Caption): boolean {
  return type === 'trip' || type === 'vehicle_journey';
}
