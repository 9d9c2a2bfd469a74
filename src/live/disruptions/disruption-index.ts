/**
 * The disruptions of a generation and what they impact, built once per generation (never per
 * request): the trips of each disruption (an impact on a network, line, route or stop impacts every
 * trip of it or through it), the disruptions of each trip, the trips of each tag, the trips of
 * NO_SERVICE disruptions.
 *
 * The listed disruptions are the file's, in file order, then the ServiceAlerts', in feed order. An
 * alert takes the tags of the file entry with its id, which it replaces in the list.
 */
import type { DisruptionLookup } from '../../ptref/disruption-lookup.js';
import { csrRow, groupByMany, type Csr } from '../../model/csr.js';
import type { Referential } from '../../ptref/referential.js';
import { EMPTY, IndexCollector } from '../../ptref/sorted-set.js';
import type { Disruption } from './disruption.js';

export class DisruptionIndex implements DisruptionLookup {
  /** every disruption listed, file entries first (index = position) */
  readonly all: Disruption[];
  /** trips of each disruption, ascending */
  private readonly trips: Uint32Array[];
  /** disruptions of each trip, ascending */
  private readonly byTrip: Csr;
  private readonly byTag = new Map<string, Uint32Array>();
  private readonly byId = new Map<string, number>();
  /** trips impacted by a NO_SERVICE disruption, ascending */
  readonly noServiceTrips: Uint32Array;
  /** scratch of the unions (one per index: requests never run at the same time on one thread) */
  private readonly collector: IndexCollector;

  constructor(
    ref: Referential,
    /** the disruptions of the file, as read */
    readonly file: Disruption[],
    /** the disruptions of the ServiceAlerts, without tags */
    readonly alerts: Disruption[],
  ) {
    const fileById = new Map(file.map((d) => [d.id, d]));
    const alertIds = new Set<string>();
    const tagged: Disruption[] = [];
    for (const a of alerts) {
      if (alertIds.has(a.id)) continue; // the same entity id in two sources: the first one
      alertIds.add(a.id);
      tagged.push({ ...a, tags: [...(fileById.get(a.id)?.tags ?? [])] });
    }
    this.all = [...file.filter((d) => !alertIds.has(d.id)), ...tagged];
    this.all.forEach((d, i) => this.byId.set(d.id, i));
    const tripCount = ref.count('trip');
    const collector = (this.collector = new IndexCollector(Math.max(1, tripCount)));
    this.trips = this.all.map((d) => {
      for (const o of d.impacted) collector.addAll(ref.toTrips(o.type, Uint32Array.of(o.index)));
      return collector.take();
    });
    this.byTrip = groupByMany(this.all.length, tripCount, (d, add) => this.trips[d]!.forEach(add));
    const tags = new Set(this.all.flatMap((d) => d.tags));
    for (const tag of tags) this.byTag.set(tag, this.tripsOfSome((d) => d.tags.includes(tag)));
    this.noServiceTrips = this.tripsOfSome((d) => d.severity.effect === 'NO_SERVICE');
  }

  /** Disruptions (indexes into `all`) impacting a trip, ascending. */
  ofTrip(trip: number): Uint32Array {
    return csrRow(this.byTrip, trip);
  }

  /** Trips impacted by disruption `i`. */
  tripsOf(i: number): Uint32Array {
    return this.trips[i] ?? EMPTY;
  }

  indexOf(id: string): number {
    return this.byId.get(id) ?? -1;
  }

  /** Trips impacted by a disruption carrying any of the tags (exact names). */
  tripsTagged(tags: string[]): Uint32Array {
    if (tags.length === 1) return this.byTag.get(tags[0]!) ?? EMPTY;
    for (const tag of tags) this.collector.addAll(this.byTag.get(tag) ?? EMPTY);
    return this.collector.take();
  }

  /** Trips impacted by a disruption one of whose application periods meets [sinceSec, untilSec]. */
  tripsInForceWithin(sinceSec: number, untilSec: number): Uint32Array {
    return this.tripsOfSome((d) => d.periods.some((p) => p.begin <= untilSec && p.end >= sinceSec));
  }

  private tripsOfSome(keep: (d: Disruption) => boolean): Uint32Array {
    let found = 0;
    this.all.forEach((d, i) => {
      if (!keep(d)) return;
      found++;
      this.collector.addAll(this.trips[i]!);
    });
    return found === 0 ? EMPTY : this.collector.take();
  }
}

/** The index of a generation without disruptions. */
export function noDisruptions(ref: Referential): DisruptionIndex {
  return new DisruptionIndex(ref, [], []);
}
