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
import { failedAnswerEnvelope, parameterWarnings, publishersWithOsm } from '../heat-maps/map-flow.js';
import { mapStart, refuseRidesharing } from '../../queries/map-prologue.js';
import { warningsJson } from '../../maps/map-warnings.js';
import { matrixParams } from '../../queries/analysis-params.js';
import { jobPercentiles, originJob, originTimes, admitManyOrigins, deadlineFrom } from '../../queries/origin-rows.js';
import { pointSetIndex } from '../../queries/point-set-refs.js';
import { requestNow } from '../../queries/param-table.js';
import { matrixColumns, matrixRows } from '../../queries/matrix-table.js';
import { parquetTableWriter } from '../../formats/parquet-table.js';
import type { TableColumn } from '../../formats/table-columns.js';
import { answerHeaders } from '../heat-maps/map-flow.js';

/** The media type of a Parquet file (registered with IANA in 2024). */
export const PARQUET_MEDIA_TYPE = 'application/vnd.apache.parquet';

/**
 * The matrix as a Parquet file, in memory (an API matrix is small: MAX_MATRIX_PAIRS), the command's
 * columns and rows (queries/matrix-table.ts): one row group per ROW_GROUP_ROWS rows as origins come.
 */
async function matrixParquet(run: (row: (r: { origin: number; seconds: Int32Array[] }) => Promise<void>) => Promise<void>, columns: TableColumn[], destinations: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const table = parquetTableWriter(columns, async (bytes) => void chunks.push(bytes));
  const rowsOf = matrixRows(destinations);
  await run(({ origin, seconds }) => table.write(rowsOf(origin, seconds)));
  await table.finish();
  return Buffer.concat(chunks);
}

export const travelTimeMatrixEndpoint: Endpoint<TargetOf<'travel_time_matrix'>> = {
  params: (_, limits) => matrixParams(limits),
  answer(target, ctx) {
    const specs = matrixParams(ctx.limits);
    const params = parseParams(specs, target.info.pairs);
    const warnings = parameterWarnings(specs, target.info.pairs);
    refuseRidesharing(params);
    return inCoverage(ctx, target.coverageRef, requestNow(params), failedAnswerEnvelope('travel_time_matrix', 'null'), async ({ coverage, generation, nowSec, timeZone }) => {
      const { t0, streets } = mapStart(generation, params, nowSec, timeZone);
      const origins = pointSetIndex(generation, 'origins', params.origins);
      const destinations = params.destinations === undefined ? origins : pointSetIndex(generation, 'destinations', params.destinations);
      const originSet = streets.data.pointSets![origins]!;
      const originCount = originSet.lon.length;
      const destinationCount = streets.pointSets[destinations]!.ids.length;
      admitManyOrigins(generation, { kind: 'matrix', set: params.origins, origins: originCount, destinations: destinationCount, params });
      const job = originJob({ coverage, generation, params, t0, timeZone, maxDurationSec: params.max_duration, destinations, originLon: originSet.lon, originLat: originSet.lat });
      const percentiles = jobPercentiles(job);
      const originIds = streets.pointSets[origins]!.ids;
      const destinationIds = streets.pointSets[destinations]!.ids;
      const run = (row: (r: { origin: number; seconds: Int32Array[] }) => void | Promise<void>) => originTimes(ctx.heatMaps, job, 0, originCount, ORIGINS_IN_FLIGHT, row, { signal: ctx.signal, deadline: deadlineFrom(ctx.limits.requestDeadlineSec), client: ctx.client });
      if (params.format === 'parquet') return { body: await matrixParquet(run, matrixColumns(originIds, destinationIds, percentiles), destinationIds.length), headers: answerHeaders(PARQUET_MEDIA_TYPE, warnings) };
      // per percentile, per origin, the row of durations
      const rows: string[][] = percentiles.map(() => new Array<string>(originCount));
      await run(({ origin, seconds }) => {
        seconds.forEach((row, p) => {
          rows[p]![origin] = `[${Array.from(row, (s) => (s < 0 ? 'null' : String(s))).join(',')}]`;
        });
      });
      const matrix =
        `{"origins":${JSON.stringify(originIds)},"destinations":${JSON.stringify(destinationIds)},` +
        `"percentiles":[${percentiles.join(',')}],"durations":[${rows.map((r) => `[${r.join(',')}]`).join(',')}]}`;
      const body = `{"travel_time_matrix":${matrix},"requested_date_time":"${formatLocal(t0, timeZone)}","feed_publishers":${publishersWithOsm(generation)},"links":[],"warnings":${warningsJson(warnings)},"context":${contextJson(nowSec, timeZone)}}`;
      return { body };
    });
  },
};
