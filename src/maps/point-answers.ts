/**
 * The answers computed at the points of a set rather than on a grid, made where they are computed
 * (a worker thread): accessibility (its measures reduced from the travel times, as JSON beside the
 * heat maps' envelope), the travel times themselves (one origin's row of a matrix, as raw
 * little-endian Int32, percentile after percentile, for the caller to write out), and one origin's
 * regional measures reduced from them (Float64).
 */
import { cumulativeOpportunities, DualAccess, roundMeasure } from '../analysis/accessibility.js';
import { decayFunction, type DecaySettings } from '../analysis/decay.js';
import { measureCount, originMeasures, type MeasureLayout } from '../analysis/regional-accessibility.js';
import type { HeatMapData, PercentileMap } from '../routing/heat-map.js';
import { warningsJson } from './map-warnings.js';
import type { HeatMapBodyParts } from './heat-map-json.js';

/** One opportunity column of one point set: `opportunities[]=SET:COLUMN`. */
export interface OpportunityRef {
  /** index in the coverage's point sets, and of the column in the set */
  set: number;
  column: number;
  /** as the request wrote it: SET:COLUMN */
  label: string;
}

export interface AccessibilityFormat {
  kind: 'accessibility';
  opportunities: OpportunityRef[];
  cutoffsSec: number[];
  decay: DecaySettings;
  /** dual access: the least time reaching this many opportunities */
  nearest: number[];
}

export interface TravelTimesFormat {
  kind: 'travel_times';
  /** the point set whose travel times are answered (without `measures`) */
  set: number;
  /**
   * regional accessibility: instead, the travel times to the points of the columns' sets (one
   * search for them all) reduced here to the measures of these columns (regional-accessibility.ts),
   * a few numbers instead of one per point
   */
  measures?: MeasuresFormat;
}

export interface MeasuresFormat {
  /** the opportunity columns, each of its point set */
  columns: { set: number; column: number }[];
  layout: MeasureLayout;
  decay: DecaySettings;
  maxDurationSec: number;
}

/** The envelope of a JSON answer at points, as the heat maps' (the place, the date, publishers, context, warnings). */
export type PointAnswerParts = Pick<HeatMapBodyParts, 'placeKey' | 'placeJson' | 'requestedDateTime' | 'publishersJson' | 'contextJson' | 'warnings'>;

const dualAccess = new DualAccess();

/** An accessibility request's other freshness level (`compare_data_freshness`): its name and its travel times. */
export interface Compared {
  level: string;
  timesOf: (set: number) => PercentileMap[];
}

/** The compared level's value and the difference (null when either side is). */
function comparedJson(level: string, own: number | null, other: number | null): string {
  const difference = own === null || other === null ? null : roundMeasure(own - other);
  return `,"compare_data_freshness":"${level}","compared_value":${other ?? 'null'},"difference":${difference ?? 'null'}`;
}

/**
 * The accessibility JSON: one entry per opportunity column, percentile and cutoff (in that order),
 * then the dual access per opportunity column, percentile and N. `timesOf(set)` gives the set's
 * travel times per percentile, computed once per set.
 */
export function accessibilityBody(format: AccessibilityFormat, data: HeatMapData, timesOf: (set: number) => PercentileMap[], maxDurationSec: number, parts: PointAnswerParts, compared?: Compared): Uint8Array {
  const decay = decayFunction(format.decay);
  const measures: string[] = [];
  const nearest: string[] = [];
  for (const ref of format.opportunities) {
    const counts = data.pointSets![ref.set]!.columns[ref.column]!.values;
    const comparedTimes = compared?.timesOf(ref.set);
    timesOf(ref.set).forEach(({ percentile, seconds }, p) => {
      const other = comparedTimes?.[p]!.seconds;
      for (const cutoff of format.cutoffsSec) {
        const value = roundMeasure(cumulativeOpportunities(seconds, counts, cutoff, decay));
        // with a comparison: the other level's value and the difference (this level's minus it)
        const versus = other ? comparedJson(compared!.level, value, roundMeasure(cumulativeOpportunities(other, counts, cutoff, decay))) : '';
        measures.push(`{"opportunities":${JSON.stringify(ref.label)},"percentile":${percentile},"cutoff":${cutoff},"decay_function":"${format.decay.name}","value":${value}${versus}}`);
      }
      for (const n of format.nearest) {
        const sec = dualAccess.nearest(seconds, counts, n, maxDurationSec);
        const versus = other ? comparedJson(compared!.level, sec, dualAccess.nearest(other, counts, n, maxDurationSec)) : '';
        nearest.push(`{"opportunities":${JSON.stringify(ref.label)},"percentile":${percentile},"n":${n},"duration":${sec ?? 'null'}${versus}}`);
      }
    });
  }
  const body =
    `{"accessibility":[${measures.join(',')}],"nearest":[${nearest.join(',')}],"${parts.placeKey}":${parts.placeJson},` +
    `"requested_date_time":"${parts.requestedDateTime}","feed_publishers":${parts.publishersJson},"links":[],"warnings":${warningsJson(parts.warnings)},"context":${parts.contextJson}}`;
  return Buffer.from(body, 'utf8');
}

/** The measures of `measures` from each column's set's travel times (`timesOf`), column after column, as little-endian Float64 (NaN: null). */
export function measuresBody(measures: MeasuresFormat, data: HeatMapData, timesOf: (set: number) => PercentileMap[]): Uint8Array {
  const { columns, layout, maxDurationSec } = measures;
  const per = measureCount(layout);
  const out = new Float64Array(columns.length * per);
  const decay = decayFunction(measures.decay);
  columns.forEach(({ set, column }, k) => {
    const rows = timesOf(set).map((map) => map.seconds);
    originMeasures(rows, data.pointSets![set]!.columns[column]!.values, layout, decay, maxDurationSec, out, k * per);
  });
  return new Uint8Array(out.buffer);
}

/** The travel times per percentile as one little-endian Int32 array (percentile-major; -1 unreached). */
export function travelTimesBody(times: PercentileMap[]): Uint8Array {
  const count = times[0]?.seconds.length ?? 0;
  const out = new Int32Array(times.length * count);
  times.forEach((map, p) => out.set(map.seconds, p * count));
  return new Uint8Array(out.buffer);
}
