/**
 * A table as CSV: a header of the columns' names, then a line per row; ids quoted when they must be
 * (RFC 4180), an `int32` null as an empty field. A block is one string built by concatenation: a
 * matrix's rows cost no array each (1.5 M rows for Porto Alegre's hexagons).
 */
import { isNullInt32, type RowBlock, type TableColumn, type TableWriter } from './table-columns.js';

/** A text as a CSV field (quoted when it holds a comma, a quote or a line break). */
export const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** The whole numbers whose texts are made once: a matrix's seconds (up to its max_duration) are looked up, not formatted millions of times. */
const CACHED_INTEGERS = 4 * 3600;
const INTEGER_TEXTS = Array.from({ length: CACHED_INTEGERS }, (_, k) => String(k));
const integerText = (v: number) => INTEGER_TEXTS[v] ?? String(v);

export function csvHeader(columns: readonly TableColumn[]): string {
  return `${columns.map((c) => csvField(c.name)).join(',')}\n`;
}

/** The field texts of each column: an id's quoted once, a number's as JavaScript writes it. */
function fieldOf(column: TableColumn): (values: RowBlock['values'][number], row: number) => string {
  switch (column.type) {
    case 'id':
    case 'point': {
      const texts = column.ids!.map(csvField);
      return (values, row) => texts[(values as Int32Array)[row]!]!;
    }
    case 'int32':
      return (values, row) => {
        const v = (values as Int32Array)[row]!;
        return isNullInt32(v) ? '' : integerText(v);
      };
    case 'float64':
      return (values, row) => String((values as Float64Array)[row]);
    case 'string':
      return (values, row) => {
        const v = (values as (string | null)[])[row];
        return v === null || v === undefined ? '' : csvField(v);
      };
  }
}

/** The CSV of a table, written through `write`; `header` false for a slice after the first (--shard). */
export function csvTableWriter(columns: readonly TableColumn[], write: (text: string) => Promise<void>, header: boolean): TableWriter {
  const fields = columns.map(fieldOf);
  let headerDue = header;
  return {
    async write(block) {
      let text = '';
      if (headerDue) {
        text = csvHeader(columns);
        headerDue = false;
      }
      for (let r = 0; r < block.rows; r++) {
        text += fields[0]!(block.values[0]!, r);
        for (let c = 1; c < fields.length; c++) text += ',' + fields[c]!(block.values[c]!, r);
        text += '\n';
      }
      await write(text);
    },
    async finish() {
      // an empty slice still has its header
      if (headerDue) await write(csvHeader(columns));
    },
  };
}
