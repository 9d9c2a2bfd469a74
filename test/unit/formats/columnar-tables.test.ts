/**
 * The table writers (src/formats/) on small hand-made tables, each file read back by a reader we did
 * not write: DuckDB for Parquet and GeoParquet, GDAL's ogrinfo for FlatGeobuf, h5py for OMX; the CSV
 * by its text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvTableWriter } from '../../../src/formats/csv-table.js';
import { parquetTableWriter, ROW_GROUP_ROWS } from '../../../src/formats/parquet-table.js';
import { geoParquetMetadata, PointBox } from '../../../src/formats/geoparquet.js';
import { flatGeobufPointsWriter } from '../../../src/formats/flatgeobuf-points.js';
import { createOmx } from '../../../src/formats/omx.js';
import type { RowBlock, TableColumn, TableWriter } from '../../../src/formats/table-columns.js';
import { duckRows, h5pyOmx, ogrinfo, parquetKeyValues, sqlText, wkbPoint } from '../../helpers/columnar-readers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-columnar-'));
const IDS = ['a', 'b,c', 'd"e'];
const LON = [-51.2, -51.1, -51.15];
const LAT = [-30.05, -30.0, -30.1];
const COLUMNS: TableColumn[] = [
  { name: 'from_id', type: 'id', ids: IDS },
  { name: 'to_id', type: 'id', ids: IDS },
  { name: 'travel_time_p50', type: 'int32' },
  { name: 'share', type: 'float64' },
];
/** origin o's rows: to every place, o * 100 + d seconds, null to the last; share o + d / 4 */
const block = (o: number): RowBlock => ({
  rows: 3,
  values: [Int32Array.of(o, o, o), Int32Array.of(0, 1, 2), Int32Array.of(o * 100, o * 100 + 1, -1), Float64Array.of(o, o + 0.25, o + 0.5)],
});

/** A writer's bytes gathered into a file. */
async function writeFile(file: string, make: (write: (bytes: Uint8Array) => Promise<void>) => TableWriter, blocks: RowBlock[]): Promise<void> {
  const chunks: Uint8Array[] = [];
  const writer = make(async (bytes) => void chunks.push(bytes));
  for (const b of blocks) await writer.write(b);
  await writer.finish();
  writeFileSync(file, Buffer.concat(chunks));
}

test('CSV: a header, ids quoted as RFC 4180 says, a null as an empty field', async () => {
  let text = '';
  const writer = csvTableWriter(COLUMNS, async (bytes) => void (text += new TextDecoder().decode(bytes)), true);
  await writer.write(block(0));
  await writer.write(block(2));
  await writer.finish();
  assert.equal(text, 'from_id,to_id,travel_time_p50,share\na,a,0,0\na,"b,c",1,0.25\na,"d""e",,0.5\n"d""e",a,200,2\n"d""e","b,c",201,2.25\n"d""e","d""e",,2.5\n');
});

test('CSV: ids in UTF-8, whole numbers of every length, a block larger than the last one guessed', async () => {
  const ids = ['São João', 'Ça,va', '東京', 'x'];
  const columns: TableColumn[] = [
    { name: 'from_id', type: 'id', ids },
    { name: 'to_id', type: 'id', ids },
    { name: 'seconds', type: 'int32' },
    { name: 'note', type: 'string' },
  ];
  // 40 rows, each longer than the first block's: the block outgrows its guess
  const numbers = [0, 9, 10, 99, 100, 14_399, 14_400, 86_400, 1_000_000, 2_147_483_647].flatMap((v) => [v, v, v, v]);
  const small: RowBlock = { rows: 1, values: [Int32Array.of(3), Int32Array.of(3), Int32Array.of(5), [null]] };
  const large: RowBlock = {
    rows: numbers.length,
    values: [new Int32Array(numbers.length).fill(2), Int32Array.from(numbers, (_, k) => k % 3), Int32Array.from(numbers), numbers.map((_, k) => (k % 2 === 0 ? `n"${k}` : null))],
  };
  const chunks: Uint8Array[] = [];
  const writer = csvTableWriter(columns, async (bytes) => void chunks.push(bytes.slice()), false);
  await writer.write(small);
  await writer.write(large);
  await writer.finish();
  const expected = ['x,x,5,', ...numbers.map((v, k) => `東京,${['São João', '"Ça,va"', '東京'][k % 3]},${v},${k % 2 === 0 ? `"n""${k}"` : ''}`)].join('\n') + '\n';
  assert.equal(Buffer.concat(chunks).toString('utf8'), expected);
  // the numbers as JavaScript writes them, read back
  assert.deepEqual(Buffer.concat(chunks).toString('utf8').trim().split('\n').slice(1).map((line) => Number(line.split(',').at(-2))), numbers);
});

test('CSV: a table of megabytes is written in buffers of its own, whole, a block larger than one buffer among them', async () => {
  const columns: TableColumn[] = [
    { name: 'from_id', type: 'id', ids: ['a', 'b'] },
    { name: 'seconds', type: 'int32' },
  ];
  const rowsOf = (rows: number, first: number): RowBlock => ({ rows, values: [Int32Array.from({ length: rows }, (_, k) => k % 2), Int32Array.from({ length: rows }, (_, k) => first + k)] });
  // blocks of 1,000 rows, then one of 300,000 (over 3 MB), then 1,000 more
  const blocks = [...Array.from({ length: 100 }, (_, k) => rowsOf(1000, k * 1000)), rowsOf(300_000, 100_000), rowsOf(1000, 400_000)];
  const chunks: Uint8Array[] = [];
  const writer = csvTableWriter(columns, async (bytes) => void chunks.push(bytes.slice()), true);
  for (const b of blocks) await writer.write(b);
  await writer.finish();
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  assert.equal(lines.length, 1 + 401_000 + 1);
  assert.equal(lines[0], 'from_id,seconds');
  for (let k = 0; k < 401_000; k += 997) assert.equal(lines[k + 1], `${'ab'[(k < 100_000 ? k % 1000 : k < 400_000 ? k - 100_000 : k - 400_000) % 2]},${k}`);
  assert.equal(lines.at(-1), '');
  // a few writes of about a megabyte, not one per block
  assert.ok(chunks.length < 10, `${chunks.length} writes`);
});

test('Parquet: DuckDB reads the rows as written, ids dictionary-encoded strings, times nullable int32, measures double', async () => {
  const file = path.join(dir, 'small.parquet');
  await writeFile(file, (write) => parquetTableWriter(COLUMNS, write), [block(0), block(1), block(2)]);
  const rows = await duckRows(`SELECT * FROM read_parquet(${sqlText(file)})`);
  const expected = [0, 1, 2].flatMap((o) => [0, 1, 2].map((d) => ({ from_id: IDS[o], to_id: IDS[d], travel_time_p50: d === 2 ? null : o * 100 + d, share: o + d / 4 })));
  assert.deepEqual(rows, expected);
  const types = await duckRows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlText(file)}))`);
  assert.deepEqual(types.map((t) => `${t['column_name']} ${t['column_type']}`), ['from_id VARCHAR', 'to_id VARCHAR', 'travel_time_p50 INTEGER', 'share DOUBLE']);
  const encodings = await duckRows(`SELECT path_in_schema, encodings FROM parquet_metadata(${sqlText(file)}) WHERE path_in_schema LIKE '%_id'`);
  for (const e of encodings) assert.match(String(e['encodings']), /RLE_DICTIONARY/, `${e['path_in_schema']}`);
});

test('Parquet: rows in row groups of ROW_GROUP_ROWS as blocks come, whole blocks never split', async () => {
  const file = path.join(dir, 'groups.parquet');
  const destinations = 1000;
  const origins = Math.ceil(ROW_GROUP_ROWS / destinations) + 5;
  const columns: TableColumn[] = [{ name: 'from_id', type: 'id', ids: Array.from({ length: origins }, (_, o) => `o${o}`) }, { name: 't', type: 'int32' }];
  const blocks = Array.from({ length: origins }, (_, o): RowBlock => ({ rows: destinations, values: [new Int32Array(destinations).fill(o), Int32Array.from({ length: destinations }, (_, d) => (d % 7 === 0 ? -1 : o + d))] }));
  await writeFile(file, (write) => parquetTableWriter(columns, write), blocks);
  const groups = await duckRows(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(${sqlText(file)}) ORDER BY row_group_id`);
  const firstGroup = Math.ceil(ROW_GROUP_ROWS / destinations) * destinations;
  assert.deepEqual(groups.map((g) => Number(g['row_group_num_rows'])), [firstGroup, origins * destinations - firstGroup]);
  const [sums] = await duckRows(`SELECT count(*) AS n, count(t) AS reached, sum(t) AS total FROM read_parquet(${sqlText(file)})`);
  let total = 0;
  let reached = 0;
  for (const b of blocks) for (const v of b.values[1] as Int32Array) if (v >= 0) (total += v), reached++;
  assert.deepEqual([Number(sums!['n']), Number(sums!['reached']), Number(sums!['total'])], [origins * destinations, reached, total]);
});

const PLACES: TableColumn[] = [
  { name: 'origin_id', type: 'id', ids: IDS },
  { name: 'schools_p50_1800s', type: 'float64' },
  { name: 'geometry', type: 'point', ids: IDS, lon: LON, lat: LAT },
];
const place = (o: number): RowBlock => ({ rows: 1, values: [Int32Array.of(o), Float64Array.of(10 * o + 0.5), Int32Array.of(o)] });

test('GeoParquet: WKB points at the places, and the geo metadata of GeoParquet 1.1', async () => {
  const file = path.join(dir, 'places.geoparquet');
  const box = new PointBox();
  await writeFile(
    file,
    (write) => {
      const writer = parquetTableWriter(PLACES, write);
      return {
        write: (b) => (box.add(LON[(b.values[0] as Int32Array)[0]!]!, LAT[(b.values[0] as Int32Array)[0]!]!), writer.write(b)),
        finish: () => ((writer.metadata = [geoParquetMetadata(PLACES, box)]), writer.finish()),
      };
    },
    [place(0), place(1), place(2)],
  );
  const rows = await duckRows(`SELECT origin_id, schools_p50_1800s, geometry FROM read_parquet(${sqlText(file)})`);
  assert.deepEqual(
    rows.map((r) => ({ id: r['origin_id'], value: r['schools_p50_1800s'], point: wkbPoint(r['geometry'] as Uint8Array) })),
    [0, 1, 2].map((o) => ({ id: IDS[o], value: 10 * o + 0.5, point: { type: 1, x: LON[o], y: LAT[o] } })),
  );
  const geo = JSON.parse((await parquetKeyValues(file)).get('geo')!);
  assert.deepEqual(geo, { version: '1.1.0', primary_column: 'geometry', columns: { geometry: { encoding: 'WKB', geometry_types: ['Point'], bbox: [-51.2, -30.1, -51.1, -30.0] } } });
});

test('FlatGeobuf: ogrinfo reads the points, their fields and their values', async () => {
  const file = path.join(dir, 'places.fgb');
  await writeFile(file, (write) => flatGeobufPointsWriter(PLACES, 3, write), [place(0), place(1), place(2)]);
  const listing = ogrinfo(file);
  assert.match(listing, /Geometry: Point/);
  assert.match(listing, /Feature Count: 3/);
  assert.match(listing, /origin_id: String/);
  assert.match(listing, /schools_p50_1800s: Real/);
  assert.match(listing, /OGRFeature\(\w+\):1\n {2}origin_id \(String\) = b,c\n {2}schools_p50_1800s \(Real\) = 10\.5\n {2}POINT \(-51\.1 -30\)/);
  assert.match(listing, /GEOGCRS\["WGS 84"/);
});

test('FlatGeobuf: a count of features other than the header said is an error', async () => {
  const writer = flatGeobufPointsWriter(PLACES, 3, async () => {});
  await writer.write(place(0));
  await assert.rejects(writer.finish(), /1 features written where the header says 3/);
});

test('OMX: h5py reads the version, the shape, the zones and each matrix, NaN where unreached', async () => {
  const file = path.join(dir, 'skims.omx');
  const omx = await createOmx(file, IDS, 'zones', ['travel_time_p5', 'travel_time_p50']);
  for (let o = 0; o < 3; o++) {
    omx.writeRow(0, o, Float32Array.of(o, o + 1, NaN));
    omx.writeRow(1, o, Float32Array.of(10 * o, NaN, 7200));
  }
  omx.close();
  const read = h5pyOmx(file);
  assert.deepEqual(read.attributes, { OMX_VERSION: '0.2', SHAPE: [3, 3] });
  assert.deepEqual(read.lookup, { zones: IDS });
  assert.deepEqual(read.data['travel_time_p5'], { dtype: 'float32', rows: [0, 1, 2].map((o) => [o, o + 1, null]) });
  assert.deepEqual(read.data['travel_time_p50'], { dtype: 'float32', rows: [0, 1, 2].map((o) => [10 * o, null, 7200]) });
});
