/**
 * A command's table written to its output file in the format its name asks for, block by block,
 * with the writer's own time counted (the closing line says it beside the search's).
 */
import { csvTableWriter } from '../formats/csv-table.js';
import { parquetTableWriter, type ParquetTableWriter } from '../formats/parquet-table.js';
import type { RowBlock, TableColumn, TableWriter } from '../formats/table-columns.js';
import { OutputFile } from './output-file.js';

export interface TableOutput {
  file: OutputFile;
  write(block: RowBlock): Promise<void>;
  /** complete the table (the file is closed and named by the caller, see output-file.ts) */
  finish(): Promise<void>;
  /** the rows written, and the seconds spent writing them (encoding, and waiting on the disk) */
  rows: number;
  seconds: number;
}

/** A table writer timed: its rows and its own seconds counted. */
export function timedTable(file: OutputFile, writer: TableWriter): TableOutput {
  const output: TableOutput = {
    file,
    rows: 0,
    seconds: 0,
    async write(block) {
      const started = performance.now();
      await writer.write(block);
      output.rows += block.rows;
      output.seconds += (performance.now() - started) / 1000;
    },
    async finish() {
      const started = performance.now();
      await writer.finish();
      output.seconds += (performance.now() - started) / 1000;
    },
  };
  return output;
}

/** CSV (gzipped for .csv.gz): the header unless the run is a slice after the first. */
export const csvOutput = (file: OutputFile, columns: readonly TableColumn[], header: boolean) => timedTable(file, csvTableWriter(columns, (bytes) => file.write(bytes), header));

/** Parquet, its row groups written as they fill. */
export function parquetOutput(file: OutputFile, columns: readonly TableColumn[]): TableOutput & { parquet: ParquetTableWriter } {
  const parquet = parquetTableWriter(columns, (bytes) => file.write(bytes));
  return Object.assign(timedTable(file, parquet), { parquet });
}

/** The closing line's words on the writing: its time and rate. */
export function writingFigures(output: TableOutput): string {
  const rate = output.seconds > 0 ? Math.round(output.rows / output.seconds) : 0;
  return `writing ${output.seconds.toFixed(2)} s, ${output.rows} rows, ${rate} rows/s`;
}
