/**
 * A GTFS file as a table of strings: parsed from CSV bytes (csv-parse, values trimmed, BOM dropped)
 * and written back as CSV, a value quoted when it holds a comma, a quote, a line end or outer spaces.
 */
import { parse } from 'csv-parse/sync';

export class GtfsTable {
  constructor(
    readonly header: string[],
    readonly rows: string[][],
  ) {}

  static parse(bytes: Buffer): GtfsTable {
    const records = parse(bytes, { bom: true, trim: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
    return new GtfsTable(records[0] ?? [], records.slice(1));
  }

  static empty(header: string[]): GtfsTable {
    return new GtfsTable([...header], []);
  }

  /** Index of a column, -1 when the file lacks it. */
  col(name: string): number {
    return this.header.indexOf(name);
  }

  /** Index of a column, added (empty in every row) when the file lacks it. */
  ensureCol(name: string): number {
    const i = this.col(name);
    if (i >= 0) return i;
    this.header.push(name);
    return this.header.length - 1;
  }

  get(row: string[], name: string): string {
    const i = this.col(name);
    return i < 0 ? '' : (row[i] ?? '');
  }

  /** A new row with the named values, every other column empty. */
  newRow(values: Record<string, string>): string[] {
    const row = this.header.map(() => '');
    for (const [name, value] of Object.entries(values)) row[this.ensureCol(name)] = value;
    return row;
  }

  set(row: string[], name: string, value: string): void {
    const i = this.ensureCol(name);
    while (row.length < i) row.push('');
    row[i] = value;
  }

  toCsv(rows: Iterable<string[]> = this.rows): string {
    const width = this.header.length;
    const lines = [this.header.map(csvValue).join(',')];
    for (const row of rows) {
      const cells: string[] = [];
      for (let i = 0; i < width; i++) cells.push(csvValue(row[i] ?? ''));
      lines.push(cells.join(','));
    }
    return lines.join('\n') + '\n';
  }
}

export function csvValue(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
