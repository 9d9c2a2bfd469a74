/**
 * What the trips filter asks of the coverage's disruptions (`disruption.tag(…)`, `.id(…)`,
 * `.since(…)`, NO_SERVICE trips): declared here, where it is used, and implemented by the
 * disruptions index (live/disruptions/disruption-index.ts), so that the referential does not depend
 * on how disruptions are read or kept.
 */
export interface DisruptionLookup {
  /** trips impacted by a disruption whose effect is NO_SERVICE, ascending */
  readonly noServiceTrips: Uint32Array;
  /** the disruption's index, -1 when there is none with that id */
  indexOf(id: string): number;
  /** trips impacted by disruption `i`, ascending */
  tripsOf(i: number): Uint32Array;
  /** trips impacted by a disruption carrying any of the tags (exact names), ascending */
  tripsTagged(tags: string[]): Uint32Array;
  /** trips impacted by a disruption one of whose application periods meets [sinceSec, untilSec], ascending */
  tripsInForceWithin(sinceSec: number, untilSec: number): Uint32Array;
}
