/**
 * `navette matrix --out`: the matrix's table (queries/matrix-table.ts) as CSV, Parquet or OMX, by
 * the file's name; what each format refuses is said before the coverage loads.
 */
import { isNullInt32, type RowBlock, type TableColumn } from '../formats/table-columns.js';
import { createOmx } from '../formats/omx.js';
import { ConfigError } from './config.js';
import { OutputFile } from './output-file.js';
import { csvOutput, parquetOutput, timedTable, type TableOutput } from './table-output.js';

export type MatrixFormat = 'csv' | 'parquet' | 'omx';

const MATRIX_FORMATS: [RegExp, MatrixFormat][] = [
  [/\.csv(\.gz)?$/, 'csv'],
  [/\.parquet$/, 'parquet'],
  [/\.omx$/, 'omx'],
];

/**
 * The format `--out` names, refused when there is none, or when the run asks what it cannot hold: an
 * OMX file is whole square matrices (zones × zones, origins and destinations one set) written by one
 * run, so neither `--destinations` another set nor `--shard`.
 */
export function matrixFormat(own: Map<string, string>): MatrixFormat {
  const out = own.get('out');
  const format = out === undefined ? undefined : MATRIX_FORMATS.find(([name]) => name.test(out))?.[1];
  if (!format) throw new ConfigError('give --out FILE.csv, FILE.csv.gz, FILE.parquet or FILE.omx');
  if (format === 'omx') {
    const destinations = own.get('destinations');
    if (destinations !== undefined && destinations !== own.get('origins')) throw new ConfigError(`--out FILE.omx holds square matrices, zones to the same zones: --destinations ${destinations} is another set than --origins ${own.get('origins')}; give --out FILE.parquet or FILE.csv`);
    if (own.has('shard')) throw new ConfigError('--out FILE.omx is written whole by one run: --shard writes parts of a CSV or Parquet file');
  }
  return format;
}

/**
 * The matrix's output: CSV and Parquet rows as they come; OMX one matrix per int32 column of the
 * table, each origin's block one row of each (its destinations, the zones, in order), float32 with
 * NaN where null. `lookup` names the zones' ids in OMX (the origin set's name).
 */
export async function openMatrixOutput(out: string, format: MatrixFormat, columns: readonly TableColumn[], options: { header: boolean; lookup: string }): Promise<TableOutput> {
  if (format === 'csv') return csvOutput(new OutputFile(out), columns, options.header);
  if (format === 'parquet') return parquetOutput(new OutputFile(out), columns);
  const file = new OutputFile(out, { byPath: true });
  try {
    return timedTable(file, await omxTableWriter(file.partial, columns, options.lookup));
  } catch (e) {
    file.abandon();
    throw e;
  }
}

async function omxTableWriter(path: string, columns: readonly TableColumn[], lookup: string) {
  const zones = columns.find((c) => c.type === 'id')!.ids!;
  const matrices = columns.map((c, k) => ({ name: c.name, k })).filter(({ k }) => columns[k]!.type === 'int32');
  const omx = await createOmx(path, zones, lookup, matrices.map((m) => m.name));
  const row = new Float32Array(zones.length);
  return {
    async write(block: RowBlock) {
      const origin = (block.values[0] as Int32Array)[0]!;
      matrices.forEach(({ k }, m) => {
        const values = block.values[k] as Int32Array;
        for (let d = 0; d < values.length; d++) row[d] = isNullInt32(values[d]!) ? NaN : values[d]!;
        omx.writeRow(m, origin, row);
      });
    },
    async finish() {
      omx.close();
    },
  };
}
