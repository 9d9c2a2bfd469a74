/**
 * A map's second step, the transit pass (R5's FastRaptorWorker after its access search): RAPTOR from
 * the stops the access found (access.ts), by the query's rules, leaving each stop reached by a
 * vehicle with its time from the centre. A departure window runs it once per minute, with the range
 * bounds of the later minutes (window-transit.ts).
 */
import { projectX, projectY } from '../model/street-graph.js';
import type { RaptorQuery, RaptorResult, RaptorSearch } from './raptor.js';
import type { AccessSearch } from './access.js';
import type { HeatMapData, HeatMapQuery } from './heat-map-types.js';
import { JourneyRaptorSearch } from './raptor-journeys.js';
import type { JourneyRecord } from './journey-paths.js';

/** What RAPTOR left at the stops: each reached stop's time from the centre (seconds), none without public transport. */
export type TransitPass = Pick<RaptorResult, 'reached' | 'reachedCount'> & { vehicleSec: Int32Array | null };

export const NO_TRANSIT: TransitPass = { vehicleSec: null, reached: new Uint32Array(0), reachedCount: 0 };

export class TransitSearch {
  /** the search of skims' queries (`breakdown`), made on the first: it keeps its journeys */
  private journeys: JourneyRaptorSearch | null = null;

  constructor(
    private readonly data: HeatMapData,
    readonly access: AccessSearch,
    readonly raptor: RaptorSearch,
  ) {}

  /** Start a new record of the `breakdown` searches' journeys (a window's: raptor-journeys.ts). */
  forgetJourneys(): void {
    this.journeySearch().forgetJourneys();
  }

  /** The journey entry of the last `breakdown` search's best label at `stop`. */
  journeyPath(stop: number): number {
    return this.journeySearch().journeyPath(stop);
  }

  /** A journey of the record, its entry and its arrival, read in parts. */
  readJourney(path: number, arrival: number, out: JourneyRecord): void {
    this.journeySearch().readJourney(path, arrival, out);
  }

  private journeySearch(): JourneyRaptorSearch {
    this.journeys ??= new JourneyRaptorSearch(this.data.raptor, this.data.serviceDayOrigins, this.data.serviceFirstDay, this.data.prunedTransfers);
    return this.journeys;
  }

  /** The access, then RAPTOR from it at q.t0 (no stop reached without public transport or access). */
  pass(q: HeatMapQuery): TransitPass {
    if (!q.transit) return NO_TRANSIT;
    const accessCount = this.accessFrom(q);
    if (accessCount === 0) return NO_TRANSIT;
    return this.from(q, q.t0, accessCount);
  }

  /** The access from the centre of `q` (access.ts): the count of stops found. */
  accessFrom(q: HeatMapQuery): number {
    const { graph } = this.data;
    const cx = projectX(graph.projection, q.centreLon);
    const cy = projectY(graph.projection, q.centreLat);
    return this.access.run(q, cx, cy, q.direction === 'arrival');
  }

  /** RAPTOR from the first `accessCount` stops of the access, by the query's rules, from `t0` (a window's minute: with its range bounds). */
  from(q: HeatMapQuery, t0: number, accessCount: number, range: RaptorQuery['range'] = null): RaptorResult {
    const raptor = q.breakdown === true ? this.journeySearch() : this.raptor;
    return raptor.search({
      direction: q.direction,
      t0,
      maxDurationSec: q.maxDurationSec,
      maxTransfers: q.maxTransfers,
      minTransfers: q.minTransfers,
      accessStops: this.access.stops,
      accessSec: this.access.times,
      count: accessCount,
      tripAllowed: q.tripAllowed,
      stopAllowed: q.stopAllowed,
      wheelchair: q.wheelchair,
      walkingSpeed: q.speeds.walking,
      boardSlackSec: q.boardSlackSec,
      overlay: q.overlay,
      range,
    });
  }
}
