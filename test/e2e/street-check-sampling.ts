/**
 * What the pgRouting checks look at, drawn deterministically (seeded): the centres of the maps,
 * spread over the street network's box and near a street, and the cells of a map that are
 * compared (some of our reached cells; cells of a disc or of the whole grid, whatever their value,
 * for the other side of the comparison).
 */
import { mulberry32 } from '../helpers/random.js';
import type { LonLat, PgRoutingWalkNetwork } from '../helpers/pgrouting-walk-network.js';
import type { Grid } from './heat-map-fidelity.js';
import { haversineM } from './straight-line-scan.js';
import { CENTRES } from './street-check-settings.js';

/** Metres per degree of latitude, to turn an inset in metres into degrees (roughly: an inset is a margin). */
const METRES_PER_DEGREE = 111_195;
/** Coordinates of a centre are rounded to this many decimals (about 0.1 m), as the request carries them. */
const CENTRE_DECIMALS = 6;

/** A cell of a map: its indices, its centre and our value there. */
export interface Cell extends LonLat {
  i: number;
  j: number;
  value: number | null;
}

/** `count` items of `list` drawn without replacement (all of them when there are fewer), in draw order. */
export function drawWithoutReplacement<T>(list: T[], count: number, random: () => number): T[] {
  const a = [...list];
  const n = Math.min(count, a.length);
  for (let k = 0; k < n; k++) {
    const r = k + Math.floor(random() * (a.length - k));
    [a[k], a[r]] = [a[r]!, a[k]!];
  }
  return a.slice(0, n);
}

/**
 * `count` centres: the network's box, less `insetM` on every side, is cut into strata (at least
 * CENTRES.strataPerCentre × count, in about as many rows as columns), taken in a seeded random
 * order, and in each the first
 * of up to CENTRES.drawsPerStratum random points within CENTRES.nearStreetM of an edge of the
 * network (and that `accept` takes) is a centre; a stratum without one (a lake, fields without a
 * stop) is passed over, until there are `count` centres.
 */
export async function drawCentres(network: PgRoutingWalkNetwork, count: number, seed: number, insetM: number, accept: (p: LonLat) => boolean = () => true): Promise<LonLat[]> {
  const random = mulberry32(seed);
  const [w0, s0, e0, n0] = network.bbox;
  const dLat = insetM / METRES_PER_DEGREE;
  const dLon = dLat / Math.cos((((s0 + n0) / 2) * Math.PI) / 180);
  const [w, s, e, n] = [w0 + dLon, s0 + dLat, e0 - dLon, n0 - dLat];
  if (!(w < e && s < n)) throw new Error(`an inset of ${insetM} m leaves nothing of the network's box`);
  const strataCount = CENTRES.strataPerCentre * count;
  const rows = Math.max(1, Math.floor(Math.sqrt(strataCount)));
  const cols = Math.ceil(strataCount / rows);
  const strata = drawWithoutReplacement(Array.from({ length: rows * cols }, (_, k) => k), rows * cols, random);
  const centres: LonLat[] = [];
  for (const stratum of strata) {
    if (centres.length === count) break;
    const [col, row] = [stratum % cols, Math.floor(stratum / cols)];
    const candidates = Array.from({ length: CENTRES.drawsPerStratum }, () => ({
      lon: round(w + ((col + random()) / cols) * (e - w)),
      lat: round(s + ((row + random()) / rows) * (n - s)),
    }));
    const linked = await network.link(candidates);
    const near = linked.find((p) => p.offsetM <= CENTRES.nearStreetM && accept(p));
    if (near) centres.push({ lon: near.lon, lat: near.lat });
  }
  if (centres.length < count) throw new Error(`only ${centres.length} of ${count} centres found within ${CENTRES.nearStreetM} m of a street`);
  return centres;
}

function round(x: number): number {
  return Number(x.toFixed(CENTRE_DECIMALS));
}

/** The request's `from` of a centre. */
export function centreParameter(c: LonLat): string {
  return `${c.lon};${c.lat}`;
}

function cellAt(g: Grid, i: number, j: number): Cell {
  return { i, j, lon: g.centreLon[i]!, lat: g.centreLat[j]!, value: g.values[i]![j] ?? null };
}

function cellsWhere(g: Grid, keep: (i: number, j: number) => boolean): { i: number; j: number }[] {
  const out: { i: number; j: number }[] = [];
  for (let i = 0; i < g.R; i++) for (let j = 0; j < g.R; j++) if (keep(i, j)) out.push({ i, j });
  return out;
}

/** `count` of the cells we reach. */
export function sampleReached(g: Grid, count: number, random: () => number): Cell[] {
  return drawWithoutReplacement(cellsWhere(g, (i, j) => g.values[i]![j] !== null), count, random).map(({ i, j }) => cellAt(g, i, j));
}

/** `count` cells whose centre lies within `radiusM` of `centre`, reached or not. */
export function sampleDisc(g: Grid, centre: LonLat, radiusM: number, count: number, random: () => number): Cell[] {
  const inside = cellsWhere(g, (i, j) => haversineM(centre.lon, centre.lat, g.centreLon[i]!, g.centreLat[j]!) <= radiusM);
  return drawWithoutReplacement(inside, count, random).map(({ i, j }) => cellAt(g, i, j));
}

/** `count` cells of the whole grid, reached or not. */
export function sampleGrid(g: Grid, count: number, random: () => number): Cell[] {
  return drawWithoutReplacement(cellsWhere(g, () => true), count, random).map(({ i, j }) => cellAt(g, i, j));
}

/** `total` spread over `parts`: the first ones get one more when it does not divide. */
export function share(total: number, parts: number, part: number): number {
  return Math.floor(total / parts) + (part < total % parts ? 1 : 0);
}
