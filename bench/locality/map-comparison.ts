/**
 * The same heat map computed on a country and on the city alone, compared cell by cell on one grid
 * and summed over the origins: the cells only one of them reaches, and where both do the
 * distribution of the differences country − city in whole seconds. The country may be faster (an
 * intercity train within the map's time); the city alone has nothing the country lacks, so a cell
 * where it is faster, or that only it reaches, is a defect to explain: `compare` hands those cells
 * back to be looked at (link-evidence.ts).
 *
 * Histograms rather than lists: 80 maps of 250,000 cells are 20 million differences.
 */

/** Below this many seconds on the city's map a cell's relative difference is left out (a few seconds' rounding would swamp it). */
export const RELATIVE_FROM_SEC = 600;
/** Relative differences are counted in per mille, within ± this many. */
const RELATIVE_SPAN = 500;

/** The cells of one origin's maps that the city alone gets better: faster, or reached where the country is not. */
export interface SuspectCells {
  cityFaster: number[];
  cityOnly: number[];
}

export class MapComparison {
  origins = 0;
  /** cells reached on either map */
  cells = 0;
  both = 0;
  countryOnly = 0;
  cityOnly = 0;
  /** origins with at least one cell the city gets faster, or reaches alone */
  originsCityFaster = 0;
  originsCityOnly = 0;
  /** per difference country − city, whole seconds, at index difference + maxSec */
  private readonly differences: Float64Array;
  /** per relative difference (country − city) / city in per mille, at index ‰ + RELATIVE_SPAN (clamped) */
  private readonly relative = new Float64Array(2 * RELATIVE_SPAN + 1);

  constructor(private readonly maxSec: number) {
    this.differences = new Float64Array(2 * maxSec + 1);
  }

  /** Add one origin's maps (whole seconds, -1 for null, on the same grid): returns the cells to explain. */
  compare(country: Int32Array, city: Int32Array): SuspectCells {
    if (country.length !== city.length) throw new Error(`maps of ${country.length} and ${city.length} cells: not on one grid`);
    const suspects: SuspectCells = { cityFaster: [], cityOnly: [] };
    const { differences, relative, maxSec } = this;
    for (let c = 0; c < city.length; c++) {
      const k = country[c]!;
      const t = city[c]!;
      if (k < 0 && t < 0) continue;
      this.cells++;
      if (t < 0) {
        this.countryOnly++;
        continue;
      }
      if (k < 0) {
        this.cityOnly++;
        suspects.cityOnly.push(c);
        continue;
      }
      this.both++;
      differences[k - t + maxSec]!++;
      if (k > t) suspects.cityFaster.push(c);
      if (t >= RELATIVE_FROM_SEC) relative[Math.max(-RELATIVE_SPAN, Math.min(RELATIVE_SPAN, Math.round((1000 * (k - t)) / t))) + RELATIVE_SPAN]!++;
    }
    this.origins++;
    if (suspects.cityFaster.length > 0) this.originsCityFaster++;
    if (suspects.cityOnly.length > 0) this.originsCityOnly++;
    return suspects;
  }

  /** How many cells reached on both maps the country gets faster (< 0), equal, slower (> 0). */
  signs(): { faster: number; equal: number; slower: number } {
    const { differences, maxSec } = this;
    let faster = 0;
    let slower = 0;
    for (let d = -maxSec; d < 0; d++) faster += differences[d + maxSec]!;
    for (let d = 1; d <= maxSec; d++) slower += differences[d + maxSec]!;
    return { faster, equal: differences[maxSec]!, slower };
  }

  /** The p-th percentile of the differences country − city, seconds (NaN without any). */
  difference(p: number): number {
    return histogramPercentile(this.differences, p, -this.maxSec);
  }

  /** The smallest and largest differences, seconds. */
  extremes(): { min: number; max: number } {
    const used = [...this.differences.keys()].filter((k) => this.differences[k]! > 0);
    return { min: used.length ? used[0]! - this.maxSec : NaN, max: used.length ? used.at(-1)! - this.maxSec : NaN };
  }

  /** The p-th percentile of the relative differences (cells of at least RELATIVE_FROM_SEC on the city's map), per mille. */
  relativeDifference(p: number): number {
    return histogramPercentile(this.relative, p, -RELATIVE_SPAN);
  }

  /** Cells the city gets faster, counted by how much: 1 s (a tenth's rounding), 2–9 s, 10–59 s, 60–599 s, 600 s and more. */
  cityFasterBy(): { label: string; cells: number }[] {
    const bands: [string, number, number][] = [['1 s', 1, 1], ['2–9 s', 2, 9], ['10–59 s', 10, 59], ['60–599 s', 60, 599], ['≥ 600 s', 600, this.maxSec]];
    return bands.map(([label, lo, hi]) => {
      let cells = 0;
      for (let d = lo; d <= hi; d++) cells += this.differences[d + this.maxSec]!;
      return { label, cells };
    });
  }
}

/** The p-th percentile (nearest rank) of values counted in a histogram whose index 0 is `first`. */
function histogramPercentile(histogram: Float64Array, p: number, first: number): number {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return NaN;
  const rank = Math.min(total - 1, Math.floor((p / 100) * total));
  let seen = 0;
  for (let k = 0; k < histogram.length; k++) {
    seen += histogram[k]!;
    if (seen > rank) return k + first;
  }
  return NaN;
}
