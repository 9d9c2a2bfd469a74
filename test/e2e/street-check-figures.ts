/**
 * The figures of the pgRouting checks, from pairs of values at the same cells: ours (the API's
 * heat map) and the reference's (pgRouting's walk, or the street oracle), null where one side does
 * not reach the cell. Two samples, two figures:
 *
 *   - agreement, over cells we reach: the share within ±tolerance of the reference, and the
 *     percentiles of ours − reference, a reference null counted as −∞ (we reach what the reference
 *     does not: it ranks lowest), so that they say something about every cell sampled;
 *   - misses, over cells the reference reaches within max_duration less the tolerance (a cell the
 *     reference reaches just before max_duration may be null on ours by less than the tolerance):
 *     the share we leave null.
 */
import { percentile } from './heat-map-fidelity.js';
import { FAR_FROM_STREET_M } from './street-check-settings.js';

export interface Pair {
  ours: number | null;
  reference: number | null;
  /** the cell centre's off-street offset on the reference's network, metres */
  offsetM: number;
}

export interface Agreement {
  cells: number;
  within: number;
  share: number;
  /** outside the tolerance: ours later than the reference, ours earlier (a null reference included) */
  oursLater: number;
  oursEarlier: number;
  /** cells the reference does not reach at all (no path, or beyond its horizon) */
  referenceNull: number;
  /** cells the reference reaches later than max_duration */
  referenceLate: number;
  /** ours − reference, a null reference as −∞ */
  p10: number;
  p50: number;
  p90: number;
}

export interface Misses {
  /** cells the reference reaches within max_duration − tolerance */
  cells: number;
  /** … that we leave null */
  oursNull: number;
  share: number;
  /** … of which the cell centre lies more than FAR_FROM_STREET_M from any street (water, fields, blocks) */
  oursNullFarFromStreet: number;
}

/** Over cells we reach (`ours` non-null). */
export function agreement(pairs: Pair[], toleranceSec: number, maxDurationSec: number): Agreement {
  const reached = pairs.filter((p) => p.ours !== null);
  const diffs = reached.map((p) => (p.reference === null ? -Infinity : p.ours! - p.reference)).sort((a, b) => a - b);
  const within = diffs.filter((d) => Math.abs(d) <= toleranceSec).length;
  return {
    cells: reached.length,
    within,
    share: reached.length ? within / reached.length : NaN,
    oursLater: diffs.filter((d) => d > toleranceSec).length,
    oursEarlier: diffs.filter((d) => d < -toleranceSec).length,
    referenceNull: reached.filter((p) => p.reference === null).length,
    referenceLate: reached.filter((p) => p.reference !== null && p.reference > maxDurationSec).length,
    p10: percentile(diffs, 0.1),
    p50: percentile(diffs, 0.5),
    p90: percentile(diffs, 0.9),
  };
}

/** Over cells the reference reaches within max_duration − tolerance. */
export function misses(pairs: Pair[], maxDurationSec: number, toleranceSec: number): Misses {
  const reached = pairs.filter((p) => p.reference !== null && p.reference <= maxDurationSec - toleranceSec);
  const oursNull = reached.filter((p) => p.ours === null);
  return {
    cells: reached.length,
    oursNull: oursNull.length,
    share: reached.length ? oursNull.length / reached.length : NaN,
    oursNullFarFromStreet: oursNull.filter((p) => p.offsetM > FAR_FROM_STREET_M).length,
  };
}

const seconds = (v: number) => (v === -Infinity ? '−∞' : v === Infinity ? '+∞' : `${v} s`);
const percent = (v: number) => `${(v * 100).toFixed(1)} %`;

/** Report lines, `label` first. */
export function agreementLines(label: string, a: Agreement, toleranceSec: number, target?: { minShareWithin?: number; maxAbsMedianSec?: number }): string[] {
  return [
    `${label}: ${a.within} / ${a.cells} of our reached cells within ±${toleranceSec} s = ${percent(a.share)}` + (target?.minShareWithin !== undefined ? ` (target ≥ ${percent(target.minShareWithin)})` : ''),
    `  ours − reference: p10 ${seconds(a.p10)}, median ${seconds(a.p50)}, p90 ${seconds(a.p90)}` + (target?.maxAbsMedianSec !== undefined ? ` (target |median| ≤ ${target.maxAbsMedianSec} s)` : ''),
    `  outside ±${toleranceSec} s: ours later at ${a.oursLater}, ours earlier at ${a.oursEarlier}`,
    `  the reference: no value at ${a.referenceNull} of them, later than max_duration at ${a.referenceLate}`,
  ];
}

export function missesLines(label: string, m: Misses, toleranceSec: number, target?: number): string[] {
  return [
    `${label}: ${m.oursNull} / ${m.cells} cells the reference reaches within max_duration − ${toleranceSec} s are null on ours = ${percent(m.share)}` + (target !== undefined ? ` (target ≤ ${percent(target)})` : ''),
    `  of those null on ours, ${m.oursNullFarFromStreet} lie more than ${FAR_FROM_STREET_M} m from any street (the reference walks that offset straight)`,
  ];
}
