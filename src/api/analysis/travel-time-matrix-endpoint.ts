/**
 * `/v1/coverage/{region}/travel_time_matrix?origins=SET&destinations=SET` (Navette's own; docs/api.md,
 * "Travel-time matrices"): the travel times from every point of one set to every point of another,
 * per percentile, for small matrices (MAX_MATRIX_ORIGINS, MAX_MATRIX_PAIRS, and origins × departures
 * within MAX_ACCESSIBILITY_SEARCHES as for regional accessibility); larger ones are
 * `navette matrix`'s. Every map parameter applies, as from each origin's position.
 */
import { ORIGINS_IN_FLIGHT } from '../../service/limits.js';
import { formatLocal } from '../../util/time-zones.js';
import { inCoverage, type Endpoint } from '../endpoint.js';
import { parseParams } from '../params.js';
import { contextJson } from '../serialize.js';
import type { TargetOf } from '../targets.js';
import { failedAnswerEnvelope, manyOriginsWarnings, parameterWarnings, publishersWithOsm } from '../heat-maps/map-flow.js';
import { mapStart, refuseRidesharing } from '../../queries/map-prologue.js';
import { warningsJson } from '../../maps/map-warnings.js';
import { matrixParams } from '../../queries/analysis-params.js';
import { jobPercentiles, originJob, originTimes, admitManyOrigins, deadlineFrom, searchedTimetable, type OriginRow } from '../../queries/origin-rows.js';
import { atSelected, pointSetIndex, selectPoints } from '../../queries/point-set-refs.js';
import { requestNow } from '../../queries/param-table.js';
import { linesRidden, type SearchTimetable } from '../../queries/ridden-lines.js';
import { PART_NAMES, skimsOf } from '../../queries/skim-parts.js';
import type { JourneyParts } from '../../routing/heat-map-types.js';
import { matrixTable, type MatrixTable } from '../../queries/matrix-table.js';
import { parquetTableWriter } from '../../formats/parquet-table.js';
import { answerHeaders } from '../heat-maps/map-flow.js';

/** The media type of a Parquet file (registered with IANA in 2024). */
export const PARQUET_MEDIA_TYPE = 'application/vnd.apache.parquet';

/**
 * The matrix as a Parquet file, in memory (an API matrix is small: MAX_MATRIX_PAIRS), the command's
 * columns and rows (queries/matrix-table.ts): one row group per ROW_GROUP_ROWS rows as origins come.
 */
async function matrixParquet(run: (row: (r: OriginRow) => Promise<void>) => Promise<void>, rows: MatrixTable): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const table = parquetTableWriter(rows.columns, async (bytes) => void chunks.push(bytes));
  await run((row) => table.write(rows.block(row)));
  await table.finish();
  return Buffer.concat(chunks);
}

export const travelTimeMatrixEndpoint: Endpoint<TargetOf<'travel_time_matrix'>> = {
  params: (_, limits) => matrixParams(limits),
  answer(target, ctx) {
    const specs = matrixParams(ctx.limits);
    const params = parseParams(specs, target.info.pairs);
    refuseRidesharing(params);
    skimsOf(params);
    return inCoverage(ctx, target.coverageRef, requestNow(params), failedAnswerEnvelope('travel_time_matrix', 'null'), async ({ coverage, generation, nowSec, timeZone }) => {
      const { t0, streets } = mapStart(generation, params, nowSec, timeZone);
      const origins = pointSetIndex(generation, 'origins', params.origins);
      const destinations = params.destinations === undefined ? origins : pointSetIndex(generation, 'destinations', params.destinations);
      // the points named by origin_ids[] and destination_ids[] (all by default): the limits count them
      const originPoints = selectPoints(generation, origins, 'origin_ids[]', params.origin_ids);
      const destinationPoints = selectPoints(generation, destinations, 'destination_ids[]', params.destination_ids);
      const originSet = streets.data.pointSets![origins]!;
      const originCount = originPoints.ids.length;
      admitManyOrigins(generation, { kind: 'matrix', set: params.origins, origins: originCount, destinations: destinationPoints.ids.length, params });
      const originLon = atSelected(originSet.lon, originPoints.indices);
      const originLat = atSelected(originSet.lat, originPoints.indices);
      const job = originJob({ coverage, generation, params, t0, timeZone, maxDurationSec: params.max_duration, destinations, originLon, originLat });
      const percentiles = jobPercentiles(job);
      const warnings = [...parameterWarnings(specs, target.info.pairs), ...manyOriginsWarnings(generation, job, timeZone)];
      const searched = searchedTimetable(job);
      const run = (row: (r: OriginRow) => void | Promise<void>) => originTimes(ctx.heatMaps, job, 0, originCount, ORIGINS_IN_FLIGHT, row, { signal: ctx.signal, deadline: deadlineFrom(ctx.limits.requestDeadlineSec), client: ctx.client }, params.breakdown);
      if (params.format === 'parquet') {
        const table = matrixTable({ originIds: originPoints.ids, destinationIds: destinationPoints.ids, destinationIndices: destinationPoints.indices, percentiles, skims: params.breakdown ? 'long' : 'none', routes: params.breakdown && params.routes ? searched : null });
        return { body: await matrixParquet(run, table), headers: answerHeaders(PARQUET_MEDIA_TYPE, warnings) };
      }
      // per percentile, per origin, the row of durations; with a breakdown, per percentile and part
      const rows: string[][] = percentiles.map(() => new Array<string>(originCount));
      const skims = params.breakdown ? percentiles.map(() => skimRows(originCount, params.routes)) : null;
      await run(({ origin, seconds, parts }) => {
        seconds.forEach((row, p) => {
          rows[p]![origin] = jsonRow(row, destinationPoints.indices);
          if (skims) addSkimRow(skims[p]!, origin, parts![p]!, searched, destinationPoints.indices);
        });
      });
      const breakdown = skims ? `,"breakdown":[${skims.map((skim, p) => skimJson(percentiles[p]!, skim)).join(',')}]` : '';
      const matrix =
        `{"origins":${JSON.stringify(originPoints.ids)},"destinations":${JSON.stringify(destinationPoints.ids)},` +
        `"percentiles":[${percentiles.join(',')}],"durations":[${rows.map((r) => `[${r.join(',')}]`).join(',')}]${breakdown}}`;
      const body = `{"travel_time_matrix":${matrix},"requested_date_time":"${formatLocal(t0, timeZone)}","feed_publishers":${publishersWithOsm(generation)},"links":[],"warnings":${warningsJson(warnings)},"context":${contextJson(nowSec, timeZone)}}`;
      return { body };
    });
  },
};

/** A row of whole seconds as JSON at the destinations named (`indices`; null: all), null where unreached. */
const jsonRow = (row: Int32Array, indices: Int32Array | null) => `[${Array.from(atSelected(row, indices), (s) => (s < 0 ? 'null' : String(s))).join(',')}]`;

/** A percentile's skims as they come, per part (PART_NAMES) per origin its JSON row, and the lines ridden when asked. */
interface SkimRows {
  parts: string[][];
  routes: string[] | null;
}

const skimRows = (origins: number, routes: boolean): SkimRows => ({ parts: PART_NAMES.map(() => new Array<string>(origins)), routes: routes ? new Array<string>(origins) : null });

function addSkimRow(skim: SkimRows, origin: number, parts: JourneyParts, searched: SearchTimetable, indices: Int32Array | null): void {
  PART_NAMES.forEach((name, k) => (skim.parts[k]![origin] = jsonRow(parts[name], indices)));
  const destinations = indices ?? parts.rides.keys();
  if (skim.routes) skim.routes[origin] = JSON.stringify(Array.from(destinations, (d) => (parts.rides[d]! < 0 ? null : linesRidden(searched, parts, d))));
}

const skimJson = (percentile: number, skim: SkimRows) =>
  `{"percentile":${percentile},${PART_NAMES.map((name, k) => `"${name}":[${skim.parts[k]!.join(',')}]`).join(',')}${skim.routes ? `,"routes":[${skim.routes.join(',')}]` : ''}}`;
