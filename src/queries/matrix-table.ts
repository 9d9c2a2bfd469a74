/**
 * A travel-time matrix as a table, the one schema its every format writes (the command's CSV,
 * Parquet and OMX, the API's Parquet), one row block per origin, origins in their order:
 *
 * - the travel times: `from_id`, `to_id`, then one nullable int32 column per percentile,
 *   `travel_time_pNN`, in whole seconds (null: unreached), a row per origin and destination;
 * - with skims (`breakdown`), the long form CSV and Parquet write: `from_id`, `to_id`, `percentile`,
 *   `travel_time`, then the parts (`access` … `rides`, skim-parts.ts), and with `routes` the ids of
 *   the lines ridden joined by `|`, a row per origin, destination and percentile;
 * - with skims in matrices (OMX): the travel times' columns and one more per part and percentile,
 *   `access_pNN` …, a row per origin and destination (each int32 column a matrix).
 *
 * A column added here is written by every format without more code: CSV and Parquet take any
 * column, OMX makes each int32 column a matrix.
 */
import type { RowBlock, TableColumn } from '../formats/table-columns.js';
import type { OriginRow } from './origin-rows.js';
import { PART_NAMES } from './skim-parts.js';
import { linesRidden, type SearchTimetable } from './ridden-lines.js';

/** How a matrix's skims are laid out: none, a row per percentile (CSV, Parquet), or a column per part and percentile (OMX). */
export type SkimLayout = 'none' | 'long' | 'wide';

/** Between the ids of the lines a journey rides, in the `routes` column. */
export const ROUTE_SEPARATOR = '|';

export interface MatrixTableRequest {
  originIds: readonly string[];
  destinationIds: readonly string[];
  /** the destinations' indices in the rows the engine gives (origin_ids/destination_ids), null: all in order */
  destinationIndices: Int32Array | null;
  percentiles: readonly number[];
  skims: SkimLayout;
  /** with long skims: the lines ridden, named from the timetable the job searched (its overlay included) */
  routes: SearchTimetable | null;
}

export interface MatrixTable {
  columns: TableColumn[];
  /** one origin's rows (its arrays are read, not kept: the block must be written before the next) */
  block(row: OriginRow): RowBlock;
}

export function matrixTable(request: MatrixTableRequest): MatrixTable {
  const { originIds, destinationIds, destinationIndices, percentiles, skims, routes } = request;
  const ids: TableColumn[] = [
    { name: 'from_id', type: 'id', ids: originIds },
    { name: 'to_id', type: 'id', ids: destinationIds },
  ];
  const D = destinationIds.length;
  const selected = (row: Int32Array) => (destinationIndices === null ? row : Int32Array.from(destinationIndices, (k) => row[k]!));
  if (skims === 'long') return longSkims(ids, D, percentiles, selected, destinationIndices, routes);
  const columns: TableColumn[] = [...ids, ...percentiles.map((p): TableColumn => ({ name: `travel_time_p${p}`, type: 'int32' }))];
  if (skims === 'wide') for (const name of PART_NAMES) columns.push(...percentiles.map((p): TableColumn => ({ name: `${name}_p${p}`, type: 'int32' })));
  const to = Int32Array.from({ length: D }, (_, d) => d);
  return {
    columns,
    block: ({ origin, seconds, parts }) => {
      const values = [new Int32Array(D).fill(origin), to, ...seconds.map(selected)];
      if (skims === 'wide') for (const name of PART_NAMES) values.push(...parts!.map((p) => selected(p[name])));
      return { rows: D, values };
    },
  };
}

/** The long form of skims: a row per destination and percentile. */
function longSkims(ids: TableColumn[], D: number, percentiles: readonly number[], selected: (row: Int32Array) => Int32Array, destinationIndices: Int32Array | null, routes: SearchTimetable | null): MatrixTable {
  const P = percentiles.length;
  const columns: TableColumn[] = [...ids, { name: 'percentile', type: 'int32' }, { name: 'travel_time', type: 'int32' }, ...PART_NAMES.map((name): TableColumn => ({ name, type: 'int32' }))];
  if (routes) columns.push({ name: 'routes', type: 'string' });
  const rows = D * P;
  const to = Int32Array.from({ length: rows }, (_, x) => Math.floor(x / P));
  const percentile = Int32Array.from({ length: rows }, (_, x) => percentiles[x % P]!);
  // the value of destination d at percentile p is row d × P + p of the block
  const interleave = (perPercentile: Int32Array[]) => {
    const out = new Int32Array(rows);
    perPercentile.forEach((row, p) => selected(row).forEach((v, d) => (out[d * P + p] = v)));
    return out;
  };
  return {
    columns,
    block: ({ origin, seconds, parts }) => {
      const values: RowBlock['values'] = [new Int32Array(rows).fill(origin), to, percentile, interleave(seconds), ...PART_NAMES.map((name) => interleave(parts!.map((p) => p[name])))];
      if (routes) {
        const lines = new Array<string | null>(rows);
        for (let d = 0; d < D; d++) {
          const at = destinationIndices === null ? d : destinationIndices[d]!;
          parts!.forEach((p, k) => (lines[d * P + k] = p.rides[at]! < 0 ? null : linesRidden(routes, p, at).join(ROUTE_SEPARATOR)));
        }
        values.push(lines);
      }
      return { rows, values };
    },
  };
}
