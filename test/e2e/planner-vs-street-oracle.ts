/**
 * The public planner's journeys and the holes of rnv-mannheim's maps (heat-map-fidelity.ts) against
 * the street oracle (street-transit-oracle.ts: a connection scan walking pgRouting's streets with a
 * minute to board, none of our code). Issue 25 asks for 95 % of the planner's journeys within
 * planner + 300 s and holes on at most 0.03 % of the reached cells; the oracle says how much of each
 * a model that walks this extract's streets can give, independently of ours:
 *
 *   - journeys: the oracle's value at the same destination cell centre, from the origin stop at the
 *     query time, up to the same max_duration. Figures: the share the oracle itself makes within
 *     planner + TOLERANCE_SEC (the ceiling for any street-walking model on this extract and feed:
 *     the planner also rides DB's trains and walks footways the extract lacks), ours within
 *     planner + TOLERANCE_SEC among those, and ours − oracle over every journey (a null as +∞ on
 *     its side: beyond max_duration);
 *   - holes: the oracle's value at the centres of our holes away from the fringe. A hole the oracle
 *     does not reach within max_duration either is a place the city's streets do not bring a walker
 *     to in time; one it reaches well before (ORACLE_TOLERANCE_SEC) is a hole of ours;
 *   - own cells over OWN_CELL_MAX_SEC: pgRouting's walk from the stop to its cell's centre (offsets
 *     included, at the walking speed). Over OWN_CELL_MAX_SEC too (or no walk: a point not linked),
 *     the city's streets make that walk long; under it, ours is too long.
 */
import type { LonLat } from '../helpers/pgrouting-walk-network.js';
import { mapConcurrent, percentile, TOLERANCE_SEC, HOLE_DATETIME, HOLE_MAX_DURATION_SEC, OWN_CELL_MAX_SEC, OWN_CELL_MAX_DURATION_SEC, type HoleMetrics, type JourneyResult, type OwnCellResult } from './heat-map-fidelity.js';
import { isLinked } from './street-transit-oracle.js';
import { instantOf, type StreetTransitOracle } from './street-transit-oracle.js';
import { RULES, TRANSIT } from './street-check-settings.js';

/** |ours − oracle| within this counts as agreeing (the transit check's tolerance) */
export const ORACLE_TOLERANCE_SEC = TRANSIT.toleranceSec;

/** The oracle's centre for an API origin: a stop_id (the rider is at that stop at t0) or `lon;lat`. */
function origin(oracle: StreetTransitOracle, from: string): { centre: LonLat; atStop: number } {
  const lonLat = /^(-?[\d.]+);(-?[\d.]+)$/.exec(from);
  if (lonLat) return { centre: { lon: Number(lonLat[1]), lat: Number(lonLat[2]) }, atStop: -1 };
  const atStop = oracle.stopIndex(from);
  if (atStop < 0) throw new Error(`stop ${from} is not in the oracle's timetable`);
  return { centre: oracle.timetable.stops[atStop]!, atStop };
}

export interface OracleJourney {
  result: JourneyResult;
  /** the oracle's value at the journey's destination cell centre; null: beyond max_duration */
  oracle: number | null;
}

export async function journeysWithOracle(results: JourneyResult[], oracle: StreetTransitOracle, concurrency = 2): Promise<OracleJourney[]> {
  return mapConcurrent(results, concurrency, async (result) => {
    const { centre, atStop } = origin(oracle, result.journey.from);
    const answer = await oracle.values(centre, [result.end], result.maxDuration, { t0: result.t0, atStop, cells: true });
    return { result, oracle: answer.values[0] ?? null };
  });
}

export interface PlannerOracleMetrics {
  count: number;
  /** journeys the oracle makes within planner + TOLERANCE_SEC */
  oracleWithin: number;
  /** … of which we make within planner + TOLERANCE_SEC too */
  oursWithinOfThose: number;
  share: number;
  /** journeys we make within planner + TOLERANCE_SEC that the oracle does not */
  oursOnlyWithin: number;
  /** |ours − oracle| ≤ ORACLE_TOLERANCE_SEC, both null (beyond max_duration) counting as agreeing */
  agreeing: number;
  /** ours − oracle, null as +∞ on its side (beyond max_duration), both null left out */
  p10: number;
  p50: number;
  p90: number;
  /** the 10 journeys farthest from the oracle (either side) */
  farthest: OracleJourney[];
}

const gap = (ours: number | null, oracle: number | null) => (ours === null ? Infinity : oracle === null ? -Infinity : ours - oracle);

export function plannerOracleMetrics(journeys: OracleJourney[]): PlannerOracleMetrics {
  const oracleMakes = journeys.filter((j) => j.oracle !== null && j.oracle <= j.result.plannerSec + TOLERANCE_SEC);
  const oursWithinOfThose = oracleMakes.filter((j) => j.result.within).length;
  const diffs = journeys.filter((j) => j.result.value !== null || j.oracle !== null).map((j) => gap(j.result.value, j.oracle)).sort((a, b) => a - b);
  const bothNull = journeys.length - diffs.length;
  return {
    count: journeys.length,
    oracleWithin: oracleMakes.length,
    oursWithinOfThose,
    share: oracleMakes.length ? oursWithinOfThose / oracleMakes.length : NaN,
    oursOnlyWithin: journeys.filter((j) => j.result.within && !oracleMakes.includes(j)).length,
    agreeing: bothNull + diffs.filter((d) => Math.abs(d) <= ORACLE_TOLERANCE_SEC).length,
    p10: percentile(diffs, 0.1),
    p50: percentile(diffs, 0.5),
    p90: percentile(diffs, 0.9),
    farthest: journeys
      .filter((j) => j.result.value !== null || j.oracle !== null)
      .sort((a, b) => Math.abs(gap(b.result.value, b.oracle)) - Math.abs(gap(a.result.value, a.oracle)) || a.result.journey.id.localeCompare(b.result.journey.id))
      .slice(0, 10),
  };
}

export interface HoleOracleMetrics {
  /** our holes away from the fringe, over the maps */
  holes: number;
  /** … the oracle does not reach within max_duration either */
  oracleUnreached: number;
  /** … the oracle reaches within max_duration − ORACLE_TOLERANCE_SEC: holes of ours */
  oracleReachedEarly: number;
  /** the others: the oracle reaches them in the last ORACLE_TOLERANCE_SEC */
  oracleReachedLate: number;
  /** of our holes, the share the oracle confirms (unreached, or reached in the last ORACLE_TOLERANCE_SEC) */
  confirmed: number;
  /** the holes the oracle reaches early: the map's origin, the cell centre, the oracle's value */
  early: { origin: string; cell: LonLat; oracle: number }[];
}

export async function holesWithOracle(holes: HoleMetrics, oracle: StreetTransitOracle, concurrency = 2): Promise<HoleOracleMetrics> {
  const t0 = instantOf(HOLE_DATETIME, oracle.timetable.timezone);
  const answers = await mapConcurrent(holes.perMap, concurrency, async (m) => {
    if (m.inner.length === 0) return [];
    const { centre, atStop } = origin(oracle, m.origin);
    return (await oracle.values(centre, m.inner, HOLE_MAX_DURATION_SEC, { t0, atStop, cells: true })).values.map((v, k) => ({ origin: m.origin, cell: m.inner[k]!, oracle: v }));
  });
  const values = answers.flat().map((a) => a.oracle);
  const earlyHoles = answers.flat().filter((a): a is { origin: string; cell: LonLat; oracle: number } => a.oracle !== null && a.oracle <= HOLE_MAX_DURATION_SEC - ORACLE_TOLERANCE_SEC);
  const early = earlyHoles.length;
  const unreached = values.filter((v) => v === null).length;
  return {
    holes: values.length,
    oracleUnreached: unreached,
    oracleReachedEarly: early,
    oracleReachedLate: values.length - unreached - early,
    confirmed: values.length ? (values.length - early) / values.length : NaN,
    early: earlyHoles,
  };
}

export interface OwnCellOracleMetrics {
  /** stops whose own cell is null or over OWN_CELL_MAX_SEC on ours */
  failing: number;
  /** … whose cell pgRouting's walk from the stop does not reach within OWN_CELL_MAX_SEC either */
  oracleConfirms: number;
  /** the others: the stop, ours, pgRouting's walk in seconds */
  disputed: { stop: string; ours: number | null; oracle: number }[];
}

export async function ownCellsWithOracle(results: OwnCellResult[], oracle: StreetTransitOracle): Promise<OwnCellOracleMetrics> {
  const failing = results.filter((r) => r.value === null || r.value > OWN_CELL_MAX_SEC);
  const speed = oracle.city.walkingSpeed;
  const disputed: OwnCellOracleMetrics['disputed'] = [];
  for (const r of failing) {
    if (!r.cell) continue;
    const { centre } = origin(oracle, r.stop);
    const [stop, cell] = await oracle.network.link([centre, r.cell]);
    if (!isLinked(stop!) || !isLinked(cell!)) continue;
    const walk = (await oracle.network.walksWithin([stop!], [cell!], OWN_CELL_MAX_DURATION_SEC * speed))[0];
    if (walk && walk.metres / speed <= OWN_CELL_MAX_SEC) disputed.push({ stop: r.stop, ours: r.value, oracle: Math.floor(walk.metres / speed) });
  }
  return { failing: failing.length, oracleConfirms: failing.length - disputed.length, disputed };
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const sec = (v: number) => (v === Infinity ? '+∞' : v === -Infinity ? '−∞' : `${v} s`);

export function plannerOracleLines(m: PlannerOracleMetrics): string[] {
  return [
    `the street oracle (pgRouting's streets, ${RULES.boardSlackSec} s to board) within planner + ${TOLERANCE_SEC} s: ${m.oracleWithin} / ${m.count} = ${pct(m.oracleWithin / m.count)} (the ceiling for a model walking this extract's streets)`,
    `  ours within planner + ${TOLERANCE_SEC} s among those: ${m.oursWithinOfThose} / ${m.oracleWithin} = ${pct(m.share)}; ours within where the oracle is not: ${m.oursOnlyWithin}`,
    `  ours − oracle at the destination cells: ${m.agreeing} / ${m.count} within ±${ORACLE_TOLERANCE_SEC} s = ${pct(m.agreeing / m.count)}; p10 ${sec(m.p10)}, median ${sec(m.p50)}, p90 ${sec(m.p90)} (null as beyond max_duration)`,
    `  farthest from the oracle:`,
    ...m.farthest.map((j) => `    ${j.result.journey.id}: ours ${j.result.value ?? 'null'}, oracle ${j.oracle ?? 'null'}, planner ${j.result.plannerSec}, max_duration ${j.result.maxDuration}, cell ${j.result.end.lon.toFixed(6)};${j.result.end.lat.toFixed(6)}`),
  ];
}

export function holeOracleLines(m: HoleOracleMetrics): string[] {
  return [
    `our ${m.holes} holes away from the fringe, at the street oracle: unreached within max_duration ${m.oracleUnreached}, reached in its last ${ORACLE_TOLERANCE_SEC} s ${m.oracleReachedLate}, reached earlier ${m.oracleReachedEarly}; confirmed ${pct(m.confirmed)}`,
    ...m.early.map((e) => `    from ${e.origin}: the cell ${e.cell.lon.toFixed(6)};${e.cell.lat.toFixed(6)}, oracle ${e.oracle} s`),
  ];
}

export function ownCellOracleLines(m: OwnCellOracleMetrics): string[] {
  return [
    `own cells over ${OWN_CELL_MAX_SEC} s or null: ${m.failing}; pgRouting's walk from the stop over ${OWN_CELL_MAX_SEC} s too (or none) for ${m.oracleConfirms}, within it for ${m.disputed.length}`,
    ...m.disputed.slice(0, 10).map((d) => `    ${d.stop}: ours ${d.ours ?? 'null'}, pgRouting ${d.oracle} s`),
  ];
}
