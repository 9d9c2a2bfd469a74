/**
 * Point sets read from small CSV and GeoJSON files written for each test: the kept places column by
 * column with their totals, each kind of unusable place reported at its line and skipped, the choice
 * of opportunity columns, the files refused whole; then the Porto Alegre hexagon grid of the shared
 * data, with its known counts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_GEOJSON_BYTES, MAX_OPPORTUNITY_COLUMNS, MAX_POINTS_PER_SET, readPointSet, type PointSetLimits, MAX_OPPORTUNITY_COUNT } from '../../../src/analysis/point-set-reader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import type { PointSetData, PointSetSource } from '../../../src/model/point-set.js';
import { SHARED_DATA, SHARED_DATA_MISSING } from '../../helpers/shared-data.js';
import { describeOrSkip } from '../../helpers/skip.js';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-point-set-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Write `text` to `name` in the temporary folder; its path. */
function written(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function read(file: string, options: Partial<PointSetSource> = {}, limits?: PointSetLimits): Promise<{ set: PointSetData; report: LoadReport }> {
  const report = new LoadReport();
  const set = await readPointSet({ name: 'test', file, ...options }, report, limits);
  return { set, report };
}

/** The columns as plain arrays, easier to compare. */
const columnsOf = (set: PointSetData) => set.columns.map((c) => ({ name: c.name, values: [...c.values], total: c.total }));

const GOOD_CSV = 'id,lon,lat,population,jobs\na,-51.2,-30.1,100,5\nb,-51.1,-30,250.5,0\nc,-51,-29.9,,7\n';

test('a CSV: ids, positions and every other column as opportunities, with totals', async () => {
  const file = written('good.csv', GOOD_CSV);
  const { set, report } = await read(file);
  assert.equal(set.name, 'test');
  assert.equal(set.file, file);
  assert.deepEqual(set.ids, ['a', 'b', 'c']);
  assert.deepEqual([...set.lon], [-51.2, -51.1, -51]);
  assert.deepEqual([...set.lat], [-30.1, -30, -29.9]);
  // c's empty population is 0: population 100 + 250.5 + 0 = 350.5, jobs 5 + 0 + 7 = 12
  assert.deepEqual(columnsOf(set), [
    { name: 'population', values: [100, 250.5, 0], total: 350.5 },
    { name: 'jobs', values: [5, 0, 7], total: 12 },
  ]);
  assert.equal(report.problemCount, 0);
});

test('a CSV with its own column names, in another order', async () => {
  const file = written('named.csv', 'y,shops,code,x\n45.5,3,h1,4.8\n45.6,,h2,4.9\n');
  const { set } = await read(file, { idColumn: 'code', lonColumn: 'x', latColumn: 'y' });
  assert.deepEqual(set.ids, ['h1', 'h2']);
  assert.deepEqual([...set.lon], [4.8, 4.9]);
  assert.deepEqual([...set.lat], [45.5, 45.6]);
  assert.deepEqual(columnsOf(set), [{ name: 'shops', values: [3, 0], total: 3 }]);
});

test('each kind of unusable CSV row is reported at its file line and skipped', async () => {
  const file = written(
    'bad.csv',
    [
      'id,lon,lat,population', // line 1
      'a,10,20,1', // 2: kept
      ',10,20,1', // 3: empty id
      'b,,20,1', // 4: empty lon
      'c,abc,20,1', // 5: non-numeric lon
      'd,181,20,1', // 6: lon past 180
      'e,10,-90.5,1', // 7: lat under -90
      'f,10,20,x', // 8: non-numeric count
      'g,10,20,-1', // 9: negative count
      'h,10,20,Infinity', // 10: non-finite count
      'a,11,21,2', // 11: a again: the first a is kept
      'i,-180,90,3', // 12: kept (the range's ends)
      'j,500,0,1', // 13: out of range
      'j,1,1,4', // 14: kept: the first j was not
    ].join('\n') + '\n',
  );
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['a', 'i', 'j']);
  assert.deepEqual([...set.lon], [10, -180, 1]);
  assert.deepEqual([...set.lat], [20, 90, 1]);
  // population 1 + 3 + 4 = 8
  assert.deepEqual(columnsOf(set), [{ name: 'population', values: [1, 3, 4], total: 8 }]);
  const line = (n: number, reason: string) => ({ file, line: n, reason });
  assert.deepEqual(report.examples, [
    line(3, 'empty id, row skipped'),
    line(4, 'missing or non-decimal lon/lat, row skipped: lon=, lat=20'),
    line(5, 'missing or non-decimal lon/lat, row skipped: lon=abc, lat=20'),
    line(6, 'lon/lat out of range, row skipped: lon=181, lat=20'),
    line(7, 'lon/lat out of range, row skipped: lon=10, lat=-90.5'),
    line(8, 'opportunity count not a finite decimal number, row skipped: population=x'),
    line(9, 'negative opportunity count, row skipped: population=-1'),
    line(10, 'opportunity count not a finite decimal number, row skipped: population=Infinity'),
    line(11, 'duplicate id, row skipped (the first row of that id is kept): a'),
    line(13, 'lon/lat out of range, row skipped: lon=500, lat=0'),
  ]);
  assert.equal(report.problemCount, 10);
});

test('only the listed opportunity columns are kept, and only they are checked', async () => {
  // d's population is not a number, but population is not kept
  const file = written('selection.csv', 'id,lon,lat,population,jobs,schools\na,1,2,5,6,7\nd,1,2,x,8,9\n');
  const { set, report } = await read(file, { opportunities: ['schools', 'jobs'] });
  assert.deepEqual(set.ids, ['a', 'd']);
  assert.deepEqual(columnsOf(set), [
    { name: 'schools', values: [7, 9], total: 16 },
    { name: 'jobs', values: [6, 8], total: 14 },
  ]);
  assert.equal(report.problemCount, 0);
});

test('a CSV without its id or position column, or a listed column, is refused naming the file and column', async () => {
  const noLat = written('no-lat.csv', 'id,lon,latitude,jobs\na,1,2,3\n');
  await assert.rejects(read(noLat), { message: `${noLat}: no column "lat" (the latitude) in the header` });
  await assert.rejects(read(noLat, { idColumn: 'code', latColumn: 'latitude' }), { message: `${noLat}: no column "code" (the id) in the header` });
  const good = written('good-again.csv', GOOD_CSV);
  await assert.rejects(read(good, { opportunities: ['jobs', 'schools'] }), { message: `${good}: no column "schools", listed as an opportunity column` });
  await assert.rejects(read(good, { opportunities: ['lon'] }), { message: `${good}: "lon" is listed as an opportunity column but holds the id or position` });
  const twice = written('twice.csv', 'id,lon,lat,jobs,jobs\na,1,2,3,4\n');
  await assert.rejects(read(twice), { message: `${twice}: the column "jobs" appears twice in the header` });
  const empty = written('empty.csv', '');
  await assert.rejects(read(empty), { message: `${empty}: empty, no header row` });
});

test('a file of another extension is refused', async () => {
  const file = written('points.txt', GOOD_CSV);
  await assert.rejects(read(file), { message: `${file}: a point set is read from a .csv, .geojson or .json file, not a .txt one` });
});

test('past the most points or columns a set may hold, the file is refused', async () => {
  assert.equal(MAX_POINTS_PER_SET, 1_000_000);
  assert.equal(MAX_OPPORTUNITY_COLUMNS, 64);
  const file = written('three.csv', GOOD_CSV); // 3 points, 2 opportunity columns
  await assert.rejects(read(file, {}, { maxPoints: 2, maxColumns: 64, maxGeoJsonBytes: MAX_GEOJSON_BYTES }), { message: `${file}: more than 2 points, the most a point set may hold` });
  await assert.rejects(read(file, {}, { maxPoints: 10, maxColumns: 1, maxGeoJsonBytes: MAX_GEOJSON_BYTES }), { message: `${file}: 2 opportunity columns, more than the 1 a point set may hold` });
  assert.deepEqual((await read(file, {}, { maxPoints: 3, maxColumns: 2, maxGeoJsonBytes: MAX_GEOJSON_BYTES })).set.ids, ['a', 'b', 'c']);
});

test('a GeoJSON file past its byte bound is refused before it is parsed; one of many features is read in slices alike', async () => {
  assert.equal(MAX_GEOJSON_BYTES, 256 * 1024 * 1024);
  // 5,001 features: past two slices of the reading
  const features = Array.from({ length: 5001 }, (_, k) => ({ type: 'Feature', id: `f${k}`, geometry: { type: 'Point', coordinates: [1 + k / 1e5, 2] }, properties: { jobs: k } }));
  const file = written('many.geojson', JSON.stringify({ type: 'FeatureCollection', features }));
  const { set } = await read(file);
  assert.equal(set.ids.length, 5001);
  assert.equal(set.ids[5000], 'f5000');
  const bytes = readFileSync(file).length;
  await assert.rejects(read(file, {}, { maxPoints: MAX_POINTS_PER_SET, maxColumns: 64, maxGeoJsonBytes: bytes - 1 }), {
    message: `${file}: a GeoJSON point set of ${bytes} bytes is larger than ${bytes - 1}: give it as CSV, which is read as a stream`,
  });
});

/** A GeoJSON Point feature. */
const point = (coordinates: unknown[], properties: Record<string, unknown> | null, id?: unknown) => ({
  type: 'Feature',
  ...(id === undefined ? {} : { id }),
  geometry: { type: 'Point', coordinates },
  properties,
});

test('a GeoJSON FeatureCollection: ids from feature.id, the id property or the index; numeric properties as columns', async () => {
  const file = written(
    'good.geojson',
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        point([2.35, 48.85], { jobs: 10, name: 'x', pop: 3 }, 'p1'), // id p1
        point([2.36, 48.86], { id: 'p2', pop: 4 }), // id from the property; jobs missing = 0
        point([2.37, 48.87], { jobs: null, pop: 1.5, schools: 2 }), // id: index 2; jobs null = 0
        point([2.38, 48.88, 35], { id: 7, pop: 1 }), // a numeric id property is the id, not a column
      ],
    }),
  );
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['p1', 'p2', '2', '7']);
  assert.deepEqual([...set.lon], [2.35, 2.36, 2.37, 2.38]);
  assert.deepEqual([...set.lat], [48.85, 48.86, 48.87, 48.88]);
  // columns in the order first seen: jobs, pop (feature 0), schools (feature 2); name is text
  // jobs 10 + 0 + 0 + 0 = 10, pop 3 + 4 + 1.5 + 1 = 9.5, schools 0 + 0 + 2 + 0 = 2
  assert.deepEqual(columnsOf(set), [
    { name: 'jobs', values: [10, 0, 0, 0], total: 10 },
    { name: 'pop', values: [3, 4, 1.5, 1], total: 9.5 },
    { name: 'schools', values: [0, 0, 2, 0], total: 2 },
  ]);
  assert.equal(report.problemCount, 0);
  // a named id property comes before feature.id; `opportunities` keeps the listed ones
  const { set: byCode } = await read(file, { idColumn: 'pop', opportunities: ['schools'] });
  assert.deepEqual(byCode.ids, ['3', '4', '1.5', '1']);
  assert.deepEqual(columnsOf(byCode), [{ name: 'schools', values: [0, 0, 2, 0], total: 2 }]);
});

test('each kind of unusable GeoJSON feature is reported at its index + 1 and skipped', async () => {
  const file = written(
    'bad.json',
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        point([0, 0], { pop: 1 }, 'a'), // 1: kept
        { type: 'Feature', id: 'l', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: { pop: 1 } }, // 2
        { type: 'Feature', id: 'n', geometry: null, properties: { pop: 1 } }, // 3
        point([1, 1], { pop: 'many' }, 'm'), // 4: non-numeric count
        point([200, 0], { pop: 1 }, 'o'), // 5: lon out of range
        point([2, 2], { pop: 5 }, 'a'), // 6: a again
        point([3, 3], { pop: -2 }, 'g'), // 7: negative
        point(['x', 1], { pop: 1 }, 'x'), // 8: non-numeric lon
        point([4, 4], { pop: 2 }, ''), // 9: empty id
        point([5, -5], null, 'b'), // 10: kept, no properties: pop 0
      ],
    }),
  );
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['a', 'b']);
  assert.deepEqual([...set.lon], [0, 5]);
  assert.deepEqual([...set.lat], [0, -5]);
  assert.deepEqual(columnsOf(set), [{ name: 'pop', values: [1, 0], total: 1 }]);
  const line = (n: number, reason: string) => ({ file, line: n, reason });
  assert.deepEqual(report.examples, [
    line(2, 'geometry not a Point, feature skipped: LineString'),
    line(3, 'geometry not a Point, feature skipped: no geometry'),
    line(4, 'opportunity count not a finite decimal number, feature skipped: pop="many"'),
    line(5, 'lon/lat out of range, feature skipped: lon=200, lat=0'),
    line(6, 'duplicate id, feature skipped (the first feature of that id is kept): a'),
    line(7, 'negative opportunity count, feature skipped: pop=-2'),
    line(8, 'missing or non-decimal lon/lat, feature skipped: lon=x, lat=1'),
    line(9, 'empty id, feature skipped'),
  ]);
});

test('a JSON file that is not a FeatureCollection, or not JSON, is refused', async () => {
  const notCollection = written('feature.geojson', JSON.stringify(point([0, 0], {})));
  await assert.rejects(read(notCollection), { message: `${notCollection}: not a GeoJSON FeatureCollection` });
  const broken = written('broken.json', '{"type": "FeatureCollection", ');
  await assert.rejects(read(broken), (e: Error) => e.message.startsWith(`${broken}: not valid JSON (`));
});

describeOrSkip('the Porto Alegre hexagon grid (shared data)', SHARED_DATA_MISSING, () => {
  test('1,227 points with their known totals, no problem', async () => {
    const { set, report } = await read(path.join(SHARED_DATA, 'porto-alegre', 'hexgrid.csv'), {});
    assert.equal(set.ids.length, 1227);
    assert.equal(set.lon.length, 1227);
    assert.equal(set.lat.length, 1227);
    assert.deepEqual(
      set.columns.map((c) => [c.name, c.values.length, c.total]),
      [
        ['population', 1227, 812_935],
        ['schools', 1227, 194],
        ['jobs', 1227, 337_921],
        ['healthcare', 1227, 141],
      ],
    );
    assert.equal(report.problemCount, 0);
    assert.deepEqual(report.notes, []);
  });
});

const HEADER7 = 'id,lon,lat,population,schools,jobs,healthcare';

test('an unterminated quote damages its own row only: a quoted field may not span lines', async () => {
  // the file: 5,002 rows, the second with a quote left open; the 5,000 after it are read
  const rows = [HEADER7, 'a,-51.2,-30.03,1,0,0,0', '"b,-51.2,-30.03,1'];
  for (let k = 0; k < 5000; k++) rows.push(`r${k},-51.2,-30.03,1,0,0,0`);
  const file = written('unterminated.csv', rows.join('\n') + '\n');
  const { set, report } = await read(file);
  assert.equal(set.ids.length, 5001);
  assert.deepEqual([set.ids[0], set.ids[1], set.ids[5000]], ['a', 'r0', 'r4999']);
  assert.equal(set.columns[0]!.total, 5001);
  assert.deepEqual(report.examples, [{ file, line: 3, reason: 'unterminated quote (a quoted field may not span lines), row skipped' }]);
  assert.equal(report.problemCount, 1);
});

test('quotes within a line: quoted fields and doubled quotes are read; a stray quote is a problem', async () => {
  const file = written(
    'quotes.csv',
    [
      'id,lon,lat,jobs', // 1
      '"a,1",1,2,"3"', // 2: kept, id a,1, a quoted count
      ' "say ""hi""" , 1 , 2 , 4 ', // 3: kept, spaces around fields
      'b"c,1,2,5', // 4: a quote inside an unquoted field
      '"d"x,1,2,6', // 5: characters after the closing quote
      '"e,1,2,7', // 6: unterminated
    ].join('\n') + '\n',
  );
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['a,1', 'say "hi"']);
  assert.deepEqual(columnsOf(set), [{ name: 'jobs', values: [3, 4], total: 7 }]);
  assert.deepEqual(report.examples, [
    { file, line: 4, reason: 'a quote inside an unquoted field, row skipped' },
    { file, line: 5, reason: 'characters after a closing quote, row skipped' },
    { file, line: 6, reason: 'unterminated quote (a quoted field may not span lines), row skipped' },
  ]);
});

test('a row with fewer or more fields than the header is a problem, not read with zeros', async () => {
  const file = written(
    'widths.csv',
    [
      HEADER7, // 1
      'x1,-51.2,-30.03', // 2: short
      'x2,-51.2,-30.03,1,2,3,4,5', // 3: an extra field
      'x3,-51.2,-30.03,1,2,3,4,', // 4: a trailing comma is an extra (empty) field
      'x4,-51.2,-30.03,1,2,3,4', // 5: kept
      'x5,-51.2,-30.03,,,,', // 6: kept, empty counts are 0
    ].join('\n') + '\n',
  );
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['x4', 'x5']);
  assert.deepEqual(
    columnsOf(set).map((c) => c.values),
    [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
    ],
  );
  assert.deepEqual(report.examples, [
    { file, line: 2, reason: 'wrong number of fields, row skipped: 3 fields, the header has 7' },
    { file, line: 3, reason: 'wrong number of fields, row skipped: 8 fields, the header has 7' },
    { file, line: 4, reason: 'wrong number of fields, row skipped: 8 fields, the header has 7' },
  ]);
});

test('numbers are decimal: hexadecimal, binary, octal, separators and words are problems', async () => {
  const rows = [
    'id,lon,lat,jobs', // 1
    'a,1,2,1e3', // 2: kept, 1000
    'b,+1.5,-.5,.25', // 3: kept
    'c,1,2,0x10', // 4
    'd,1,2,0b1', // 5
    'e,1,2,0o7', // 6
    'f,1,2,1_000', // 7
    'g,1,2,Infinity', // 8
    'h,0x10,2,1', // 9: a hexadecimal longitude
    'i,1,2,1e999', // 10: decimal, but past the doubles
    'j,1,2,-0', // 11: kept, 0
    'k,1.,2.,3.', // 12: kept
  ];
  const file = written('decimal.csv', rows.join('\n') + '\n');
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['a', 'b', 'j', 'k']);
  assert.deepEqual([...set.lon], [1, 1.5, 1, 1]);
  assert.deepEqual([...set.lat], [2, -0.5, 2, 2]);
  assert.deepEqual(columnsOf(set), [{ name: 'jobs', values: [1000, 0.25, -0, 3], total: 1003.25 }]);
  const count = (line: number, text: string) => ({ file, line, reason: `opportunity count not a finite decimal number, row skipped: jobs=${text}` });
  // five examples per reason are kept: lines 4 to 8, then the longitude; line 10 is counted
  assert.deepEqual(report.examples, [count(4, '0x10'), count(5, '0b1'), count(6, '0o7'), count(7, '1_000'), count(8, 'Infinity'), { file, line: 9, reason: 'missing or non-decimal lon/lat, row skipped: lon=0x10, lat=2' }]);
  assert.equal(report.counts.get('opportunity count not a finite decimal number, row skipped'), 6);
});

test('a last line without its line end is damage: the file cut mid-write loses that row, reported', async () => {
  const file = written('cut-count.csv', 'id,lon,lat,jobs\na,1,2,1214\nb,1,2,12'); // b's 1214 cut to 12
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['a']);
  assert.deepEqual(report.examples, [{ file, line: 3, reason: 'last line without its line end (the file is cut short or still being written), row skipped' }]);
  // a header alone without its line end may be cut: the file is refused
  const header = written('cut-header.csv', 'id,lon,lat,jo');
  await assert.rejects(read(header), { message: `${header}: the header row has no line end (the file is cut short or still being written)` });
  // CR and CRLF line ends, a byte-order mark, blank lines
  const crlf = written('crlf.csv', '\ufeffid,lon,lat,jobs\r\na,1,2,3\r\n\r\nb,1,2,4\rc,1,2,5\r');
  const read2 = await read(crlf);
  assert.deepEqual(read2.set.ids, ['a', 'b', 'c']);
  assert.equal(read2.report.problemCount, 0);
});

test('a file changed while it is read is refused, naming the file', async () => {
  const file = written('growing.csv', 'id,lon,lat,jobs\na,1,2,x\nb,1,2,3\n');
  // the bad row's report comes while the file is read: a writer appends then
  const report = new LoadReport(() => appendFileSync(file, 'c,1,2,4\n'));
  await assert.rejects(readPointSet({ name: 'test', file }, report), (e: Error) => e.message.startsWith(`${file}: changed while it was read (`) && e.message.endsWith('the point set is refused until the file settles'));
});

test('counts past MAX_OPPORTUNITY_COUNT or non-finite are problems; the bound keeps a set\'s sums finite and exact', async () => {
  assert.equal(MAX_OPPORTUNITY_COUNT, 1_000_000_000);
  // every sum of counts over a set's points is a whole number of doubles, exact in any order
  assert.ok(MAX_OPPORTUNITY_COUNT * MAX_POINTS_PER_SET <= Number.MAX_SAFE_INTEGER);
  const file = written('huge.csv', `id,lon,lat,jobs\na,-51.2,-30.03,1e308\nb,-51.2,-30.04,1e308\nc,1,2,${MAX_OPPORTUNITY_COUNT}\nd,1,2,1000000001\ne,1,2,${MAX_OPPORTUNITY_COUNT}\nf,1,2,1\n`);
  const { set, report } = await read(file);
  assert.deepEqual(set.ids, ['c', 'e', 'f']);
  assert.deepEqual(columnsOf(set), [{ name: 'jobs', values: [1e9, 1e9, 1], total: 2_000_000_001 }]);
  const over = (line: number, text: string) => ({ file, line, reason: `opportunity count over 1000000000, the most a point may hold, row skipped: jobs=${text}` });
  assert.deepEqual(report.examples, [over(2, '1e308'), over(3, '1e308'), over(5, '1000000001')]);
  // GeoJSON alike: 1e999 is parsed Infinity
  const geo = written('huge.geojson', `{"type":"FeatureCollection","features":[${JSON.stringify(point([0, 0], { pop: 1 }, 'a'))},${JSON.stringify(point([0, 0], { pop: 1e308 }, 'b'))},{"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"pop":1e999}}]}`);
  const g = await read(geo);
  assert.deepEqual(g.set.ids, ['a']);
  assert.deepEqual(g.report.examples, [
    { file: geo, line: 2, reason: 'opportunity count over 1000000000, the most a point may hold, feature skipped: pop=1e+308' },
    { file: geo, line: 3, reason: 'opportunity count not a finite decimal number, feature skipped: pop=Infinity' },
  ]);
});

describeOrSkip('a cut copy of the Porto Alegre hexagon grid (shared data)', SHARED_DATA_MISSING, () => {
  test('head -c 30000: the 475 whole rows are read, the cut one reported at its line', async () => {
    const whole = readFileSync(path.join(SHARED_DATA, 'porto-alegre', 'hexgrid.csv'));
    const file = written('hexgrid-cut.csv', whole.subarray(0, 30000).toString('latin1'));
    const { set, report } = await read(file);
    assert.equal(set.ids.length, 475);
    assert.equal(set.lat[474], -30.0693078994511);
    assert.deepEqual(report.examples, [{ file, line: 477, reason: 'last line without its line end (the file is cut short or still being written), row skipped' }]);
  });
});
