/**
 * The public-transport referential over a Timetable: for every object type, its ids, names and
 * the links to trips, so that any set of objects converts to the trips it concerns and back. What
 * each type is comes from its descriptor (object-types.ts): the methods look their types up in
 * that table, and the constructor builds the groupings the descriptors' links ask for.
 *
 * Conversions go through trips (in the base schedule, vehicle journey i is trip i), like Navitia's
 * type graph goes through vehicle journeys, with direct links where the hierarchy gives one
 * (stop area ↔ stop point, network ↔ line ↔ route: a descriptor's children).
 */
import KDBush from 'kdbush';
import { csrRow, groupBy, groupByMany, type Csr } from '../model/csr.js';
import { ServiceDays } from '../model/service-days.js';
import type { Timetable } from '../model/timetable.js';
import { crowFlyMetres, degreesAround } from '../util/geodesy.js';
import { CAPTIONS, OBJECT_TYPES, type Caption, type ObjectType } from './object-types.js';
import { EMPTY, IndexCollector, range } from './sorted-set.js';

/** An object of the referential: its type and its index among the objects of that type. */
export interface ObjectRef {
  readonly type: Caption;
  readonly index: number;
}

export class Referential {
  readonly days: ServiceDays;
  /** Trips of each object, for the types with one object per trip (line, route, network, mode, pattern, feed, service). */
  private readonly tripsOf: Partial<Record<Caption, Csr>> = {};
  /** Children of each object, for the types that have children (stop area, line, network, company). */
  private readonly childrenOf: Partial<Record<Caption, Csr>> = {};
  /** Patterns serving each stop point. */
  private readonly stopPatterns: Csr;
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
    // Captions of the same objects (network and company, dataset and contributor) share their links: one grouping for both.
    const groupings = new Map<object, Csr>();
    const grouping = (link: object, build: () => Csr) => {
      let csr = groupings.get(link);
      if (!csr) groupings.set(link, (csr = build()));
      return csr;
    };
    for (const type of CAPTIONS) {
      const { trips: link, children, count } = OBJECT_TYPES[type];
      if (link.kind === 'one_per_trip') this.tripsOf[type] = grouping(link, () => groupBy(n, count(tt), (t) => link.ofTrip(tt, t)));
      if (children) {
        const childCount = OBJECT_TYPES[children.type].count(tt);
        this.childrenOf[type] = grouping(children, () => groupBy(childCount, count(tt), (c) => children.parentOf(tt, c)));
      }
    }
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
    const line = trips.line;
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
    return OBJECT_TYPES[type].count(this.tt);
  }

  /** Id of object `i` of a type. */
  id(type: Caption, i: number): string {
    const descriptor = OBJECT_TYPES[type];
    return descriptor.idPrefix + descriptor.sourceId(this.tt, i);
  }

  /** Name of object `i` of a type. */
  name(type: Caption, i: number): string {
    return OBJECT_TYPES[type].name(this.tt, i);
  }

  /** Objects of a type with this name, ascending (a scan: names are not indexed). */
  named(type: Caption, name: string): Uint32Array {
    const { count, name: nameOf } = OBJECT_TYPES[type];
    const tt = this.tt;
    const n = count(tt);
    const found: number[] = [];
    for (let i = 0; i < n; i++) if (nameOf(tt, i) === name) found.push(i);
    return Uint32Array.from(found);
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

  /**
   * The object an id names: the first of `types`, in that order, with an object of this id (the
   * order decides when several have one); undefined when none has. The classifier of the ids of
   * forbidden_uris[] and allowed_id[]: each caller passes its order (object-types.ts).
   */
  identify(id: string, types: readonly Caption[]): ObjectRef | undefined {
    for (const type of types) {
      const index = this.indexOf(type, id);
      if (index >= 0) return { type, index };
    }
    return undefined;
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
    if (from === to) return set;
    const source = OBJECT_TYPES[from];
    const target = OBJECT_TYPES[to];
    if (source.trips.kind === 'is_trip' && target.trips.kind === 'is_trip') return set;
    // down to the children, or up to the parents: a direct link
    if (source.children?.type === to) return this.unionOfRows(this.childrenOf[from]!, set, to);
    if (target.children?.type === from) return this.mapEach(set, to, target.children.parentOf);
    return this.objectsOfTrips(to, target, this.tripsOfObjects(from, source, set));
  }

  /** Trips related to a set of objects, ascending. */
  toTrips(type: Caption, set: Uint32Array): Uint32Array {
    return this.tripsOfObjects(type, OBJECT_TYPES[type], set);
  }

  /** Objects of a type related to a set of trips, ascending. */
  fromTrips(type: Caption, trips: Uint32Array): Uint32Array {
    return this.objectsOfTrips(type, OBJECT_TYPES[type], trips);
  }

  // toTrips and fromTrips given the type's descriptor (convert has it already: one lookup less)

  private tripsOfObjects(type: Caption, { trips: link, children }: ObjectType, set: Uint32Array): Uint32Array {
    switch (link.kind) {
      case 'is_trip':
        return set;
      case 'one_per_trip':
        return this.unionOfRows(this.tripsOf[type]!, set, 'trip');
      case 'pattern_stops':
        return this.unionOfRows(this.tripsOf.journey_pattern!, this.unionOfRows(this.stopPatterns, set, 'journey_pattern'), 'trip');
      case 'through_children':
        return this.toTrips(children!.type, this.unionOfRows(this.childrenOf[type]!, set, children!.type));
      case 'none':
        return EMPTY;
    }
  }

  private objectsOfTrips(type: Caption, { trips: link, children }: ObjectType, trips: Uint32Array): Uint32Array {
    switch (link.kind) {
      case 'is_trip':
        return trips;
      case 'one_per_trip':
        return this.mapEach(trips, type, link.ofTrip);
      case 'pattern_stops': {
        const patterns = this.fromTrips('journey_pattern', trips);
        const c = this.collector(type);
        const { stopOffset, stops } = this.tt.patterns;
        for (let k = 0; k < patterns.length; k++) {
          const p = patterns[k]!;
          for (let i = stopOffset[p]!; i < stopOffset[p + 1]!; i++) c.add(stops[i]!);
        }
        return c.take();
      }
      case 'through_children':
        return this.convert(children!.type, type, this.fromTrips(children!.type, trips));
      case 'none':
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

  /** The objects of a type that `objectOf` gives for the members of a set (a descriptor's function: no closure per call). */
  private mapEach(set: Uint32Array, type: Caption, objectOf: (tt: Timetable, i: number) => number): Uint32Array {
    const c = this.collector(type);
    const tt = this.tt;
    for (let k = 0; k < set.length; k++) c.add(objectOf(tt, set[k]!));
    return c.take();
  }
}
