/**
 * The disruptions of a generation and what they impact, built once per generation (never per
 * request): an impact on a network, line, route or stop impacts every trip of it or through it. The
 * index goes through the distinct objects impacted, so that its size and the work of a request
 * follow the timetable, not the file: a thousand disruptions on one network find its trips once,
 * and a trip knows its few objects, not the thousand disruptions.
 *
 * The listed disruptions are the file's, in file order, then the ServiceAlerts', in feed order. An
 * alert takes the tags of the file entry with its id, which it replaces in the list.
 */
import type { DisruptionLookup } from '../../ptref/disruption-lookup.js';
import { csrRow, groupByMany, type Csr } from '../../model/csr.js';
import type { Referential } from '../../ptref/referential.js';
import { EMPTY, IndexCollector } from '../../ptref/sorted-set.js';
import type { Disruption, ImpactedType } from './disruption.js';
import { inOnePiece, inSlices } from '../../util/stepwise.js';

/** What the index is made of, built a step at a time by `indexSteps`. */
interface IndexParts {
  all: Disruption[];
  file: Disruption[];
  alerts: Disruption[];
  objectTrips: Uint32Array[];
  objectsOf: Csr;
  byObject: Csr;
  byTrip: Csr;
  byTag: Map<string, number[]>;
  byId: Map<string, number>;
  objectIds: Map<string, number>;
  tripCount: number;
}

/** How many disruptions are indexed between two yields. */
const DISRUPTIONS_PER_STEP = 2048;

export class DisruptionIndex implements DisruptionLookup {
  /** every disruption listed, file entries first (index = position) */
  readonly all: Disruption[];
  /** the disruptions of the file, as read */
  readonly file: Disruption[];
  /** the disruptions of the ServiceAlerts, without tags */
  readonly alerts: Disruption[];
  /** the distinct objects the disruptions impact (ids 0..n-1) and the trips of each, ascending */
  private readonly objectTrips: Uint32Array[];
  /** objects of each disruption */
  private readonly objectsOf: Csr;
  /** disruptions of each object, ascending */
  private readonly byObject: Csr;
  /** objects of each trip */
  private readonly byTrip: Csr;
  /** disruptions carrying each tag, ascending */
  private readonly byTag: Map<string, number[]>;
  private readonly byId: Map<string, number>;
  /** the id of each object impacted, by "type:index" */
  private readonly objectIds: Map<string, number>;
  /** trips impacted by a NO_SERVICE disruption, ascending */
  readonly noServiceTrips: Uint32Array;
  /** scratch of the unions (one per index: requests never run at the same time on one thread) */
  private readonly collector: IndexCollector;
  private readonly objectMarks: IndexCollector;

  private constructor(parts: IndexParts) {
    ({ all: this.all, file: this.file, alerts: this.alerts, objectTrips: this.objectTrips, objectsOf: this.objectsOf, byObject: this.byObject } = parts);
    ({ byTrip: this.byTrip, byTag: this.byTag, byId: this.byId, objectIds: this.objectIds } = parts);
    this.collector = new IndexCollector(Math.max(1, parts.tripCount));
    this.objectMarks = new IndexCollector(Math.max(1, this.objectTrips.length));
    this.noServiceTrips = this.tripsOfSome(this.all.flatMap((d, i) => (d.severity.effect === 'NO_SERVICE' ? [i] : [])));
  }

  /** The index of the file's disruptions and the ServiceAlerts', in one piece. */
  static of(ref: Referential, file: Disruption[], alerts: Disruption[]): DisruptionIndex {
    return new DisruptionIndex(inOnePiece(indexSteps(ref, file, alerts)));
  }

  /** `of`, a few milliseconds at a time (a file of 50,000 disruptions takes a tenth of a second). */
  static async inSlices(ref: Referential, file: Disruption[], alerts: Disruption[]): Promise<DisruptionIndex> {
    return new DisruptionIndex(await inSlices(indexSteps(ref, file, alerts)));
  }

  /** Disruptions (indexes into `all`) impacting a trip, ascending. */
  ofTrip(trip: number): Uint32Array {
    return this.firstOfTrips(Uint32Array.of(trip), Infinity);
  }

  /**
   * The first `max` disruptions (indexes into `all`, ascending) impacting one of `trips`: a page's,
   * at the cost of its trips' objects times `max`, however many disruptions name them.
   */
  firstOfTrips(trips: Uint32Array, max: number): Uint32Array {
    for (const t of trips) this.objectMarks.addAll(csrRow(this.byTrip, t));
    const found: number[] = [];
    for (const o of this.objectMarks.take()) {
      const row = csrRow(this.byObject, o);
      for (let k = 0; k < row.length && k < max; k++) found.push(row[k]!);
    }
    const ascending = Uint32Array.from(new Set(found)).sort();
    return ascending.length > max ? ascending.slice(0, max) : ascending;
  }

  /**
   * The first `max` disruptions (indexes into `all`, ascending) naming one of `objects` (indexes of
   * type `type`) directly among their impacted objects, at the cost of the objects times `max`.
   */
  firstNaming(type: ImpactedType, objects: Uint32Array, max: number): Uint32Array {
    const found: number[] = [];
    for (const index of objects) {
      const o = this.objectIds.get(`${type}:${index}`);
      if (o === undefined) continue;
      const row = csrRow(this.byObject, o);
      for (let k = 0; k < row.length && k < max; k++) found.push(row[k]!);
    }
    const ascending = Uint32Array.from(new Set(found)).sort();
    return ascending.length > max ? ascending.slice(0, max) : ascending;
  }

  /** Trips impacted by disruption `i`. */
  tripsOf(i: number): Uint32Array {
    return i >= 0 && i < this.all.length ? this.tripsOfSome([i]) : EMPTY;
  }

  indexOf(id: string): number {
    return this.byId.get(id) ?? -1;
  }

  /** Trips impacted by a disruption carrying any of the tags (exact names). */
  tripsTagged(tags: string[]): Uint32Array {
    return this.tripsOfSome(tags.flatMap((tag) => this.byTag.get(tag) ?? []));
  }

  /** Trips impacted by a disruption one of whose application periods meets [sinceSec, untilSec]. */
  tripsInForceWithin(sinceSec: number, untilSec: number): Uint32Array {
    return this.tripsOfSome(this.all.flatMap((d, i) => (d.periods.some((p) => p.begin <= untilSec && p.end >= sinceSec) ? [i] : [])));
  }

  /** The trips of the objects of `disruptions`, each object visited once. */
  private tripsOfSome(disruptions: number[]): Uint32Array {
    if (disruptions.length === 0) return EMPTY;
    for (const d of disruptions) this.objectMarks.addAll(csrRow(this.objectsOf, d));
    for (const o of this.objectMarks.take()) this.collector.addAll(this.objectTrips[o]!);
    return this.collector.take();
  }
}

/**
 * The parts of the index of `file` and `alerts`. The listed disruptions are the file's, in file
 * order, then the alerts', in feed order; an alert takes the tags of the file entry with its id,
 * which it replaces in the list. Each distinct object's trips are found once, however many
 * disruptions name it.
 */
function* indexSteps(ref: Referential, file: Disruption[], alerts: Disruption[]): Generator<void, IndexParts> {
  const fileById = new Map(file.map((d) => [d.id, d]));
  const alertIds = new Set<string>();
  const tagged: Disruption[] = [];
  for (const a of alerts) {
    if (alertIds.has(a.id)) continue; // the same entity id in two sources: the first one
    alertIds.add(a.id);
    tagged.push({ ...a, tags: [...(fileById.get(a.id)?.tags ?? [])] });
  }
  const all = [...file.filter((d) => !alertIds.has(d.id)), ...tagged];
  yield;
  const byId = new Map<string, number>();
  const byTag = new Map<string, number[]>();
  const objectIds = new Map<string, number>();
  const objectTrips: Uint32Array[] = [];
  const offsets = new Uint32Array(all.length + 1);
  all.forEach((d, i) => (offsets[i + 1] = offsets[i]! + d.impacted.length));
  const items = new Uint32Array(offsets[all.length]!);
  let k = 0;
  for (let i = 0; i < all.length; i++) {
    const d = all[i]!;
    byId.set(d.id, i);
    for (const tag of d.tags) {
      const list = byTag.get(tag);
      if (!list) byTag.set(tag, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
    for (const o of d.impacted) {
      const key = `${o.type}:${o.index}`;
      let id = objectIds.get(key);
      if (id === undefined) {
        objectIds.set(key, (id = objectTrips.length));
        objectTrips.push(ref.toTrips(o.type, Uint32Array.of(o.index)));
      }
      items[k++] = id;
    }
    if (i % DISRUPTIONS_PER_STEP === DISRUPTIONS_PER_STEP - 1) yield;
  }
  const objectsOf = { offsets, items };
  const byObject = groupByMany(all.length, objectTrips.length, (d, add) => csrRow(objectsOf, d).forEach(add));
  yield;
  const tripCount = ref.count('trip');
  const byTrip = groupByMany(objectTrips.length, tripCount, (o, add) => objectTrips[o]!.forEach(add));
  return { all, file, alerts, objectTrips, objectsOf, byObject, byTrip, byTag, byId, objectIds, tripCount };
}

/** The index of a generation without disruptions. */
export function noDisruptions(ref: Referential): DisruptionIndex {
  return DisruptionIndex.of(ref, [], []);
}
