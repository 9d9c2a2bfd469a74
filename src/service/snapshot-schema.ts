/**
 * What a coverage's snapshot must hold before any of it is used: the schema of the meta and of the
 * tree coverage-snapshot.ts reads (the timetable, the load report and the street data), checked
 * after the checksum and the decoding.
 *
 * The checksum tells a damaged file, not a crafted one: whoever writes a file computes its checksum
 * too, and may put any JSON and any bytes under it. So everything the loader, the referential, the
 * API and the searches read without a check of their own is checked here, once:
 *
 *   - shape: every object has exactly the fields of its type, each of its kind (a string, a whole
 *     number, a finite number, a boolean), every typed array of the exact kind the code reads (a
 *     Uint32Array where indexes are unsigned, an Int32Array where -1 means none);
 *   - lengths: the arrays of a table's items have its count of items, its offsets one more, and the
 *     counts written as numbers (vertexCount, routeCount…) are those of the arrays;
 *   - offsets: they start at 0, never decrease and end at the length of the array they cut, and
 *     where two tables cut the same items (a trip's stop times and its pattern's stops, a route's
 *     stop times and its stops × trips) they cut them alike;
 *   - indexes: below the count of the table they index (a trip's pattern, a pattern's stop, a graph
 *     edge's ends, a segment's point within its edge, a route-trip's trip…);
 *   - values the code divides by, loops on or sizes memory with: a frequency's headway above 0, the
 *     calendar within GTFS dates, coordinates finite and on the globe, time zones known and distinct.
 *
 * What is refused is a SnapshotError naming the field, the ordinary refusal after which the coverage
 * loads from its sources. The checks are loops over the typed arrays and the lists, allocating
 * nothing per element: linear in the size of the data (docs/operating.md, "Snapshots", gives the
 * cost). Each type's list of fields is typed against the interface it checks, so a field added to
 * the compiled data fails to compile until its rule is written.
 *
 * This file holds the entry points and the load report's rules; the timetable's are in
 * snapshot-timetable-schema.ts, the street data's in snapshot-streets-schema.ts, the transit search
 * data's in snapshot-raptor-schema.ts, all on the checks of snapshot-checker.ts.
 */
import type { LoadReportState, Problem } from '../gtfs/load-report.js';
import type { Timetable } from '../model/timetable.js';
import type { SourceFile } from './source-files.js';
import type { StreetData } from './street-data.js';
import { Checker, isArray, isCount, isFiniteNumber, isInteger, isString, isStringOrNull } from './snapshot-checker.js';
import { checkStreets } from './snapshot-streets-schema.js';
import { checkTimetable } from './snapshot-timetable-schema.js';

/** What a coverage's snapshot records besides its data (the file layer adds the lengths of its parts). */
export interface SnapshotMeta {
  coverage: string;
  /** the Navette version that wrote it (for information: the format version decides) */
  navette: string;
  builtAt: string;
  timezone: string | null;
  sources: SourceFile[];
  /**
   * The timetable's production period and time zone, for what is refused before the snapshot's data
   * is read (the analysis commands' --datetime); absent from snapshots written before it was recorded.
   */
  production?: SnapshotProduction;
}

/** A production period as a snapshot's header records it: day numbers (-1 when no trip runs), the timetable's time zone. */
export interface SnapshotProduction {
  firstDay: number;
  lastDay: number;
  timeZone: string;
}

/** The tree of a coverage's snapshot. */
export interface SnapshotTree {
  tt: Timetable;
  report: LoadReportState;
  streets: Omit<StreetData, 'id'> | null;
}

/** Check the meta of a coverage's snapshot (before its sources are compared with the coverage's). */
export function checkSnapshotMeta(meta: unknown, file: string): asserts meta is SnapshotMeta {
  const c = new Checker(file);
  const m = c.someFields<SnapshotMeta>(meta, 'meta', { coverage: isString, navette: isString, builtAt: isString, timezone: isStringOrNull, sources: isArray });
  c.records<SourceFile>(m.sources, 'meta.sources', { path: isString, size: isCount, mtimeMs: isFiniteNumber, sha256: isString });
}

/** What a coverage's configuration says its snapshot holds. */
export interface ExpectedTree {
  /** its GTFS sources: one feed each */
  feedCount: number;
  /** whether it has an OpenStreetMap extract: street data exactly then */
  streets: boolean;
}

/** Check the tree of a coverage's snapshot; throws a SnapshotError naming the first field found wrong. */
export function checkSnapshotTree(tree: unknown, file: string, expected: ExpectedTree): asserts tree is SnapshotTree {
  const c = new Checker(file);
  const root = c.fields<SnapshotTree>(tree, '', { tt: true, report: true, streets: true });
  const tt = checkTimetable(c, root.tt, expected.feedCount);
  checkReport(c, root.report);
  if (!expected.streets) {
    if (root.streets !== null) c.refuse('streets', 'is not null, for a coverage without an OpenStreetMap extract');
  } else {
    checkStreets(c, root.streets, tt);
  }
}

// ---------------------------------------------------------------------------------------------
// The load report

/**
 * The most lines a report's list may hold. LoadReport.restore spreads them into push(), whose
 * arguments live on the stack (200,000 overflow it); a compiled report holds five examples per
 * reason and a few notes per source file, far fewer.
 */
const MAX_REPORT_LINES = 10_000;

function checkReport(c: Checker, value: unknown): void {
  const report = c.fields<LoadReportState>(value, 'report', { counts: true, examples: true, notes: true });
  const counts = c.list(report.counts, 'report.counts');
  for (let i = 0; i < counts.length; i++) {
    const pair: unknown = counts[i];
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || isCount(pair[1]) !== undefined) {
      c.refuse(`report.counts[${i}]`, 'is not a [reason, count] pair');
    }
  }
  const examples = c.records<Problem>(report.examples, 'report.examples', { file: isString, line: isInteger, reason: isString });
  const notes = c.strings(report.notes, 'report.notes');
  for (const [list, path] of [[counts, 'report.counts'], [examples, 'report.examples'], [notes, 'report.notes']] as const) {
    if (list.length > MAX_REPORT_LINES) c.refuse(path, `holds ${list.length} lines, more than a load report's ${MAX_REPORT_LINES}`);
  }
}
