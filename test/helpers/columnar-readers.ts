/**
 * The independent readers of the columnar outputs, for the tests: DuckDB (its own Parquet reader,
 * no extension: the WKB and the footer's key-value metadata are read with plain SQL and decoded
 * here), GDAL's ogrinfo (FlatGeobuf), h5py (OMX, through Debian's python3).
 */
import { execFileSync } from 'node:child_process';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

let connection: Promise<DuckDBConnection> | undefined;

/** The rows of a query, values as JSON would give them (BIGINT as strings, BLOBs as their text). */
export async function duckRows(sql: string): Promise<Record<string, unknown>[]> {
  connection ??= DuckDBInstance.create(':memory:').then((db) => db.connect());
  const reader = await (await connection).runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

/** A quoted SQL string. */
export const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The footer's key-value metadata of a Parquet file, by key. */
export async function parquetKeyValues(file: string): Promise<Map<string, string>> {
  const rows = await duckRows(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${sqlText(file)})`);
  return new Map(rows.map((r) => [String(r['key']), String(r['value'])]));
}

/** A WKB point's coordinates (either byte order). */
export function wkbPoint(bytes: Uint8Array): { type: number; x: number; y: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = view.getUint8(0) === 1;
  return { type: view.getUint32(1, little), x: view.getFloat64(5, little), y: view.getFloat64(13, little) };
}

/** The Python of Debian's packages (h5py is python3-h5py there), not a virtual environment's. */
const SYSTEM_PYTHON = '/usr/bin/python3';

/** What h5py reads of an OMX file: the root's attributes, the lookups and each matrix's rows (null for NaN). */
export function h5pyOmx(file: string): { attributes: Record<string, unknown>; lookup: Record<string, string[]>; data: Record<string, { dtype: string; rows: (number | null)[][] }> } {
  const script = `
import sys, json, math, h5py
f = h5py.File(sys.argv[1], 'r')
def text(v): return v.decode() if isinstance(v, bytes) else str(v)
print(json.dumps({
  'attributes': {k: (v.tolist() if hasattr(v, 'tolist') else text(v)) for k, v in f.attrs.items()},
  'lookup': {k: [text(z) for z in f['lookup'][k][:]] for k in f['lookup']},
  'data': {k: {'dtype': str(f['data'][k].dtype), 'rows': [[None if math.isnan(x) else x for x in row] for row in f['data'][k][:].tolist()]} for k in f['data']},
}))`;
  return JSON.parse(execFileSync(SYSTEM_PYTHON, ['-c', script, file], { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** ogrinfo's full listing of a vector file (every feature, its fields and geometry). */
export function ogrinfo(file: string): string {
  return execFileSync('ogrinfo', ['-al', '-ro', file], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

/** A feature as ogrinfo lists it: its fields' values as printed, by name, and its geometry's WKT. */
export interface OgrFeature {
  fields: Record<string, string>;
  geometry: string;
}

/** ogrinfo's listing of a one-layer vector file read back: the header's feature count and every feature, in order. */
export function ogrFeatures(file: string): { count: number; features: OgrFeature[] } {
  const listing = ogrinfo(file);
  const count = /^Feature Count: (\d+)$/m.exec(listing);
  if (!count) throw new Error(`ogrinfo lists no feature count for ${file}`);
  // each feature: `OGRFeature(LAYER):FID`, then `  NAME (TYPE) = VALUE` lines and its geometry, then a blank line
  const features = listing
    .split(/^OGRFeature\([^)]*\):\d+\n/m)
    .slice(1)
    .map((block) => {
      const lines = block.split('\n').filter((line) => line.startsWith('  '));
      const fields: Record<string, string> = {};
      let geometry = '';
      for (const line of lines) {
        const field = /^ {2}(.+) \(\w+\) = (.*)$/.exec(line);
        if (field) fields[field[1]!] = field[2]!;
        else geometry = line.trim();
      }
      return { fields, geometry };
    });
  return { count: Number(count[1]), features };
}

