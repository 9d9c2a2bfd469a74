/**
 * Read one GTFS table: find its columns by name, check the required ones, and hand every data row to
 * the caller with the column indexes resolved once.
 */
import { CsvReader, headerNames, LineTooLong, type CsvRow } from './csv-reader.js';
import type { FeedSource } from './feed-source.js';
import { FeedError } from './load-report.js';

/** Column name -> index in the row, or -1 when the file lacks that column. */
export type Columns<K extends string> = Record<K, number>;

export interface TableSpec<K extends string> {
  file: string;
  /** Every column the reader may use. */
  columns: readonly K[];
  /** Columns without which the file is unusable. */
  required?: readonly K[];
}

/**
 * Stream `spec.file` of `source` row by row. Resolves to the number of data rows, or -1 when the file
 * is absent. Throws FeedError when a required column is missing.
 */
export async function readTable<K extends string>(
  source: FeedSource,
  spec: TableSpec<K>,
  onRow: (row: CsvRow, col: Columns<K>) => void,
  onBytes?: (n: number) => void,
  maxLineBytes = source.limits.maxLineBytes,
): Promise<number> {
  if (!source.files.has(spec.file)) return -1;
  let col: Columns<K> | null = null;
  let rows = 0;
  const reader = new CsvReader((row) => {
    if (col === null) {
      const names = headerNames(row);
      const c = {} as Columns<K>;
      for (const name of spec.columns) c[name] = names.indexOf(name);
      for (const name of spec.required ?? []) {
        if (c[name] < 0) throw new FeedError(`${source.location}: ${spec.file} has no column ${name}`);
      }
      col = c;
      return;
    }
    rows++;
    onRow(row, col);
  }, maxLineBytes);
  try {
    await source.read(spec.file, (chunk) => {
      reader.push(chunk);
      onBytes?.(chunk.length);
    });
    reader.end();
  } catch (e) {
    if (e instanceof LineTooLong) throw new FeedError(`${source.location}: ${spec.file} ${e.message} (readLimits.maxLineBytes): the file is refused`);
    throw e;
  }
  return rows;
}
