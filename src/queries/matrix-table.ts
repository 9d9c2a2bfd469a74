/**
 * A travel-time matrix as a table, the one schema its every format writes (the command's CSV,
 * Parquet and OMX, the API's Parquet): `from_id`, `to_id`, then one nullable int32 column per
 * percentile, `travel_time_pNN`, in whole seconds (null: unreached), one row per origin and
 * destination, origins in their set's order. A column added here (a journey's parts, say) is
 * written by every format without more code: CSV and Parquet take any column, OMX makes each int32
 * column a matrix.
 */
import type { RowBlock, TableColumn } from '../formats/table-columns.js';

export function matrixColumns(originIds: readonly string[], destinationIds: readonly string[], percentiles: readonly number[]): TableColumn[] {
  return [
    { name: 'from_id', type: 'id', ids: originIds },
    { name: 'to_id', type: 'id', ids: destinationIds },
    ...percentiles.map((p): TableColumn => ({ name: `travel_time_p${p}`, type: 'int32' })),
  ];
}

/**
 * The rows of one origin (`seconds`: per percentile, per destination, -1 unreached), in the columns'
 * order: the arrays are the origin's own, not copies, so the block must be written before they change.
 */
export function matrixRows(destinations: number): (origin: number, seconds: readonly Int32Array[]) => RowBlock {
  const to = Int32Array.from({ length: destinations }, (_, d) => d);
  return (origin, seconds) => ({ rows: destinations, values: [new Int32Array(destinations).fill(origin), to, ...seconds] });
}
