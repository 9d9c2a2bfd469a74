/**
 * `navette accessibility --out`: the measures of each origin as a table, by the file's name:
 *
 * - CSV and Parquet, the long form: `origin_id,percentile,cutoff,SET:COLUMN,…`, one row per origin,
 *   percentile and cutoff;
 * - GeoParquet and FlatGeobuf, places: one row (feature) per origin with its point (`geometry`; a
 *   grid's cell centre with --grid) and one column per measure, `SET:COLUMN_pNN_CUTOFFs`;
 * - the GeoTIFF of a grid is the command's own (written whole, once every origin is in).
 */
import { geoParquetMetadata, PointBox } from '../formats/geoparquet.js';
import { flatGeobufPointsWriter } from '../formats/flatgeobuf-points.js';
import type { RowBlock, TableColumn } from '../formats/table-columns.js';
import { ConfigError } from './config.js';
import { OutputFile } from './output-file.js';
import { csvOutput, parquetOutput, timedTable, type TableOutput } from './table-output.js';

export type AccessibilityFormat = 'csv' | 'parquet' | 'geoparquet' | 'fgb' | 'tiff';

const ACCESSIBILITY_FORMATS: [RegExp, AccessibilityFormat][] = [
  [/\.csv(\.gz)?$/, 'csv'],
  [/\.geoparquet$/, 'geoparquet'],
  [/\.parquet$/, 'parquet'],
  [/\.fgb$/, 'fgb'],
  [/\.tiff?$/, 'tiff'],
];

/** The format `--out` names, or a refusal listing them. */
export function accessibilityFormat(out: string | undefined): AccessibilityFormat {
  const format = out === undefined ? undefined : ACCESSIBILITY_FORMATS.find(([name]) => name.test(out))?.[1];
  if (!format) throw new ConfigError('give --out FILE.csv, FILE.csv.gz, FILE.parquet, FILE.geoparquet, FILE.fgb or FILE.tif');
  return format;
}

/** What the measures are: the origins, the percentiles, cutoffs and opportunity columns (labels, a comparison's suffix included). */
export interface MeasureLayout {
  ids: readonly string[];
  lon: ArrayLike<number>;
  lat: ArrayLike<number>;
  percentiles: readonly number[];
  cutoffs: readonly number[];
  labels: readonly string[];
}

/** The long form's columns (the CSV's, the Parquet's). */
function longColumns(layout: MeasureLayout): TableColumn[] {
  return [
    { name: 'origin_id', type: 'id', ids: layout.ids },
    { name: 'percentile', type: 'int32' },
    { name: 'cutoff', type: 'int32' },
    ...layout.labels.map((label): TableColumn => ({ name: label, type: 'float64' })),
  ];
}

/** The places' columns: the id, a measure per percentile, cutoff and column (in that order), the point. */
function placeColumns(layout: MeasureLayout): TableColumn[] {
  const measures: TableColumn[] = [];
  for (const p of layout.percentiles) for (const cutoff of layout.cutoffs) for (const label of layout.labels) measures.push({ name: `${label}_p${p}_${cutoff}s`, type: 'float64' });
  return [{ name: 'origin_id', type: 'id', ids: layout.ids }, ...measures, { name: 'geometry', type: 'point', ids: layout.ids, lon: layout.lon, lat: layout.lat }];
}

/** An origin's rows, from its measures ordered by percentile, cutoff and column. */
function longRows(layout: MeasureLayout): (origin: number, measures: Float64Array) => RowBlock {
  const P = layout.percentiles.length;
  const C = layout.cutoffs.length;
  const K = layout.labels.length;
  const percentile = Int32Array.from({ length: P * C }, (_, r) => layout.percentiles[Math.floor(r / C)]!);
  const cutoff = Int32Array.from({ length: P * C }, (_, r) => layout.cutoffs[r % C]!);
  return (origin, measures) => ({
    rows: P * C,
    values: [new Int32Array(P * C).fill(origin), percentile, cutoff, ...Array.from({ length: K }, (_, k) => Float64Array.from({ length: P * C }, (_, r) => measures[r * K + k]!))],
  });
}

function placeRow(origin: number, measures: Float64Array): RowBlock {
  const place = Int32Array.of(origin);
  return { rows: 1, values: [place, ...Array.from(measures, (v) => Float64Array.of(v)), place] };
}

export interface AccessibilityOutput extends TableOutput {
  /** one origin's measures, ordered by percentile, cutoff and column */
  writeOrigin(origin: number, measures: Float64Array): Promise<void>;
}

/** The output of a run's `origins` (the slice's count) in `format` (not the GeoTIFF's). */
export function openAccessibilityOutput(out: string, format: Exclude<AccessibilityFormat, 'tiff'>, layout: MeasureLayout, options: { header: boolean; origins: number }): AccessibilityOutput {
  const file = new OutputFile(out);
  if (format === 'csv' || format === 'parquet') {
    const output = format === 'csv' ? csvOutput(file, longColumns(layout), options.header) : parquetOutput(file, longColumns(layout));
    const rowsOf = longRows(layout);
    return Object.assign(output, { writeOrigin: (origin: number, measures: Float64Array) => output.write(rowsOf(origin, measures)) });
  }
  const columns = placeColumns(layout);
  if (format === 'fgb') {
    const output = timedTable(file, flatGeobufPointsWriter(columns, options.origins, (bytes) => file.write(bytes)));
    return Object.assign(output, { writeOrigin: (origin: number, measures: Float64Array) => output.write(placeRow(origin, measures)) });
  }
  // GeoParquet: the box of the places written goes to the footer's metadata
  const output = parquetOutput(file, columns);
  const box = new PointBox();
  const finish = output.finish;
  return Object.assign(output, {
    writeOrigin: (origin: number, measures: Float64Array) => {
      box.add(layout.lon[origin]!, layout.lat[origin]!);
      return output.write(placeRow(origin, measures));
    },
    finish: () => {
      output.parquet.metadata = [geoParquetMetadata(columns, box)];
      return finish();
    },
  });
}
