/**
 * The JSON of accessibility from one place (docs/api.md, "Accessibility"), written from the
 * reducer's numbers (analysis/travel-time-reducer.ts, MeasureLayout's order per opportunity
 * column): one entry per opportunity column, percentile and cutoff, then the dual access per
 * column, percentile and N; with a comparison, each beside the other level's value and the
 * difference. NaN, the reducer's null, is written null, as any non-finite number would be.
 */
import { measureDifference } from '../../analysis/accessibility.js';
import type { MeasureLayout } from '../../analysis/travel-time-reducer.js';
import type { HeatMapBodyParts } from '../../maps/heat-map-json.js';
import { warningsJson } from '../../maps/map-warnings.js';

export interface PlaceAccessibility {
  labels: readonly string[];
  percentiles: readonly number[];
  layout: MeasureLayout;
  decayName: string;
  measures: Float64Array;
  /** the other side's measures, and how the answer names it (`compare_data_freshness` or `compare_scenario`, and its value) */
  compared: { param: string; name: string; measures: Float64Array } | null;
}

/** The envelope of the answer, as the maps': the place, the date, publishers, context, warnings. */
export type PlaceEnvelope = Pick<HeatMapBodyParts, 'placeKey' | 'placeJson' | 'requestedDateTime' | 'publishersJson' | 'contextJson' | 'warnings'>;

// JSON has no Infinity: a non-finite number is written null (the reader's bound on counts keeps measures finite)
const numberJson = (value: number) => (Number.isFinite(value) ? String(value) : 'null');

/** The compared side's value and the difference (null when either side is). */
function comparedJson(compared: { param: string; name: string }, own: number, other: number): string {
  const difference = measureDifference(own, other);
  return `,${JSON.stringify(compared.param)}:${JSON.stringify(compared.name)},"compared_value":${numberJson(other)},"difference":${numberJson(difference)}`;
}

export function placeAccessibilityJson(a: PlaceAccessibility, envelope: PlaceEnvelope): string {
  const { cutoffsSec, nearest } = a.layout;
  const perPercentile = cutoffsSec.length + nearest.length;
  const measures: string[] = [];
  const duals: string[] = [];
  a.labels.forEach((label, k) => {
    const opportunities = JSON.stringify(label);
    a.percentiles.forEach((percentile, p) => {
      const at = (k * a.percentiles.length + p) * perPercentile;
      const versus = (i: number) => (a.compared ? comparedJson(a.compared, a.measures[i]!, a.compared.measures[i]!) : '');
      cutoffsSec.forEach((cutoff, c) => {
        measures.push(`{"opportunities":${opportunities},"percentile":${percentile},"cutoff":${cutoff},"decay_function":"${a.decayName}","value":${numberJson(a.measures[at + c]!)}${versus(at + c)}}`);
      });
      nearest.forEach((n, j) => {
        const i = at + cutoffsSec.length + j;
        duals.push(`{"opportunities":${opportunities},"percentile":${percentile},"n":${n},"duration":${numberJson(a.measures[i]!)}${versus(i)}}`);
      });
    });
  });
  return (
    `{"accessibility":[${measures.join(',')}],"nearest":[${duals.join(',')}],"${envelope.placeKey}":${envelope.placeJson},` +
    `"requested_date_time":"${envelope.requestedDateTime}","feed_publishers":${envelope.publishersJson},"links":[],"warnings":${warningsJson(envelope.warnings)},"context":${envelope.contextJson}}`
  );
}
