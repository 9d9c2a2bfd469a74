/**
 * A source feed copied into a tile's zip, file by file and row by row as it is read: each chunk of
 * text goes to the compressor as it is made, and only the entry's compressed bytes are held until
 * it is written (zip-writer.ts); the most that waits for a busy compressor is one source file's text
 * (the feed reader cannot be paused). What each column becomes is gtfs-tables.ts's: ids prefixed,
 * positions placed, dates shifted, time zones made the country's; the rest is copied byte for byte.
 */
import { CsvReader, headerNames, type CsvRow } from '../../src/gtfs/csv-reader.js';
import { openFeedSource } from '../../src/gtfs/feed-source.js';
import type { ZipWriter } from '../../test/helpers/zip-writer.js';
import { CsvOut } from './csv-out.js';
import type { FeedPlacement, PointE7 } from './feed-placement.js';
import { COPIED_FILES, COUNTRY_TIMEZONE, DATE_COLUMNS, ID_COLUMNS, POSITION_COLUMNS, TIMEZONE_COLUMNS } from './gtfs-tables.js';
import { e7Text } from './grid.js';
import { shiftedDate } from './service-week.js';

/** Data rows written, per file. */
export type CopiedRows = Partial<Record<(typeof COPIED_FILES)[number], number>>;

export interface CopyRules {
  /** `t12:` */
  prefix: string;
  shiftDays: number;
  placement: FeedPlacement;
}

/** Copy the feed at `file` into `zip` (its files as entries of the same names). */
export async function copyFeed(file: string, zip: ZipWriter, rules: CopyRules): Promise<CopiedRows> {
  const source = await openFeedSource(file);
  const rows: CopiedRows = {};
  try {
    for (const name of COPIED_FILES) {
      if (!source.files.has(name)) continue;
      await zip.entry(name, async (write) => {
        const lines = new CsvOut(write);
        let copy: ((row: CsvRow) => void) | undefined;
        let count = 0;
        const reader = new CsvReader((row) => {
          if (copy) {
            copy(row);
            count++;
            return;
          }
          const names = headerNames(row);
          lines.row(names);
          copy = rowCopier(name, names, rules, lines);
        });
        await source.read(name, (chunk) => reader.push(chunk));
        reader.end();
        await lines.end();
        rows[name] = count;
      });
    }
  } finally {
    source.close();
  }
  return rows;
}

/** How a file's rows are copied, from its header: most fields as their bytes, ids after their prefix. */
function rowCopier(file: string, names: string[], rules: CopyRules, out: CsvOut): (row: CsvRow) => void {
  const { prefix, shiftDays, placement } = rules;
  const position = POSITION_COLUMNS[file];
  const lonAt = position ? names.indexOf(position.lon) : -1;
  const latAt = position ? names.indexOf(position.lat) : -1;
  const place = position?.kind === 'stop' ? placement.stop.bind(placement) : placement.shape.bind(placement);
  const change = names.map((name): ((text: string) => string) | undefined => {
    if (DATE_COLUMNS.has(name)) return (text) => shiftedDate(text, shiftDays);
    if (TIMEZONE_COLUMNS.has(name)) return (text) => (text === '' ? text : COUNTRY_TIMEZONE);
    return undefined;
  });
  const prefixBytes = Buffer.from(prefix, 'utf8');
  const prefixOf = names.map((name) => (ID_COLUMNS.has(name) ? prefixBytes : undefined));
  return (row) => {
    let placed: PointE7 | undefined;
    if (lonAt >= 0 && latAt >= 0) {
      const lon = row.float(lonAt, NaN);
      const lat = row.float(latAt, NaN);
      // a stop without a position (a generic node of a station) keeps none
      if (Number.isFinite(lon) && Number.isFinite(lat)) placed = place(lon, lat);
    }
    for (let i = 0; i < names.length; i++) {
      if (placed && i === lonAt) out.text(e7Text(placed[0]));
      else if (placed && i === latAt) out.text(e7Text(placed[1]));
      else if (change[i]) out.text(change[i]!(row.text(i)));
      else out.copy(row, i, prefixOf[i]);
    }
    out.endRow();
  };
}
