/**
 * The columns of a table written in several formats (CSV, Parquet, GeoParquet, FlatGeobuf, OMX),
 * described once: each writer maps a column's type to its own, so a new column is one more entry in
 * the schema the command makes, not one more piece of code per format.
 *
 * Rows come in blocks, one array per column (a block is typically one origin's rows):
 * - `id`: indices into the column's `ids` (dictionary-encoded strings in Parquet);
 * - `int32`: whole numbers, a negative one meaning null (an unreached destination is -1);
 * - `float64`: numbers, never null;
 * - `string`: texts, null allowed;
 * - `point`: indices into the column's `lon`/`lat` (a place's position, WKB or a feature's geometry).
 */
export type ColumnType = 'id' | 'int32' | 'float64' | 'string' | 'point';

export interface TableColumn {
  name: string;
  type: ColumnType;
  /** `id` and `point`: the ids of the places the indices name */
  ids?: readonly string[];
  /** `point`: the places' positions, WGS84 degrees */
  lon?: ArrayLike<number>;
  lat?: ArrayLike<number>;
}

export type ColumnValues = Int32Array | Float64Array | (string | null)[];

export interface RowBlock {
  rows: number;
  /** per column of the schema, in its order */
  values: ColumnValues[];
}

/** An `int32` value below this is null. */
export const isNullInt32 = (v: number) => v < 0;

/** A writer of a table's rows, block by block, into some sink; `finish` completes the file. */
export interface TableWriter {
  write(block: RowBlock): Promise<void>;
  finish(): Promise<void>;
}
