import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvReader, headerNames, LineTooLong, type CsvRow } from '../../../src/gtfs/csv-reader.js';

/** Read `text` split into chunks of `chunkSize` bytes; rows as string arrays plus their line numbers. */
function readAll(text: string | Buffer, chunkSize = 1 << 20): { rows: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const lines: number[] = [];
  const reader = new CsvReader((row: CsvRow) => {
    rows.push(headerNames(row).map((_, i) => row.text(i)));
    lines.push(row.line);
  });
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let i = 0; i < buf.length; i += chunkSize) reader.push(buf.subarray(i, i + chunkSize));
  reader.end();
  return { rows, lines };
}

test('plain rows are split on commas and line ends', () => {
  assert.deepEqual(readAll('a,b,c\n1,2,3\n').rows, [['a', 'b', 'c'], ['1', '2', '3']]);
});

test('CRLF, a missing final newline and a BOM are handled', () => {
  const buf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,name\r\nx,y\r\nz,w')]);
  assert.deepEqual(readAll(buf).rows, [['id', 'name'], ['x', 'y'], ['z', 'w']]);
});

test('quoted fields keep commas, newlines and doubled quotes', () => {
  const { rows, lines } = readAll('id,name\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,end\n');
  assert.deepEqual(rows.slice(1), [['1', 'a, b'], ['2', 'say "hi"'], ['3', 'two\nlines'], ['4', 'end']]);
  // Line numbers count the physical lines: row 4 starts on line 6 because row 3 spans two lines.
  assert.deepEqual(lines, [1, 2, 3, 4, 6]);
});

test('a quoted field says so, and its bytes keep the quotes doubled (for copying it as it was)', () => {
  const got: [boolean, string][] = [];
  const reader = new CsvReader((row) => {
    for (let i = 0; i < 4; i++) got.push([row.isQuoted(i), row.buf.toString('utf8', row.starts[i]!, Math.max(row.starts[i]!, row.ends[i]!))]);
  });
  reader.push(Buffer.from('"say ""hi""",plain,""\n'));
  reader.end();
  assert.deepEqual(got, [
    [true, 'say ""hi""'],
    [false, 'plain'],
    [true, ''],
    [false, ''],
  ]);
});

test('every chunk size gives the same rows', () => {
  const text = 'trip_id,arrival_time,stop_headsign\r\nT1,08:00:00,"Gare, quai ""A"""\r\nT1,25:10:05,\r\n\r\nT2, 7:05:09 ,x';
  const expected = readAll(text).rows;
  for (const size of [1, 2, 3, 5, 7, 13]) assert.deepEqual(readAll(text, size).rows, expected, `chunk size ${size}`);
});

test('empty lines are skipped and spaces around fields trimmed', () => {
  assert.deepEqual(readAll('a, b \n\n  1 ,2\n').rows, [['a', 'b'], ['1', '2']]);
});

test('numbers and GTFS times are read from the bytes', () => {
  const got: number[][] = [];
  const reader = new CsvReader((row) => {
    if (row.line === 1) return;
    got.push([row.int(0, -7), row.time(1), row.time(2), row.float(3, -1)]);
  });
  reader.push(Buffer.from('n,t1,t2,f\n42,32:41:00,7:05:09,1.5\n,,8:5:00,x\n-3,ab:00:00,24:00:00,\n'));
  reader.end();
  assert.deepEqual(got[0], [42, 117660, 25509, 1.5]);
  assert.equal(got[1]![0], -7); // empty int gives the fallback
  assert.equal(got[1]![1], -1); // empty time
  assert.equal(got[1]![2], -2); // malformed time (one-digit minutes)
  assert.ok(Number.isNaN(got[1]![3]));
  assert.deepEqual(got[2]!.slice(0, 3), [-3, -2, 86400]);
});

describe('bounded reading', () => {
  const rowsOf = (chunks: Buffer[], maxLineBytes = Infinity) => {
    const rows: string[][] = [];
    const reader = new CsvReader((row) => rows.push(Array.from({ length: row.fieldCount }, (_, i) => row.text(i))), maxLineBytes);
    for (const c of chunks) reader.push(c);
    reader.end();
    return { rows, reader };
  };
  const split = (text: string, size: number) => {
    const b = Buffer.from(text);
    const out: Buffer[] = [];
    for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
    return out;
  };

  test('a 2 MB row in 1 kB chunks is examined about once, not once per chunk', () => {
    const long = 'x'.repeat(2 << 20);
    const { rows, reader } = rowsOf(split(`a,b\n1,${long}\n2,y\n`, 1024), 4 << 20);
    assert.equal(rows.length, 3);
    assert.equal(rows[1]![1]!.length, long.length);
    const input = long.length + 12;
    assert.ok(reader.scannedBytes < 3 * input, `${reader.scannedBytes} bytes examined for ${input}`);
  });

  test('a line longer than the limit throws LineTooLong with its line number, whether it ends or not', () => {
    for (const text of [`a,b\n1,2\n3,${'x'.repeat(5000)}\n4,5\n`, `a,b\n1,2\n3,${'x'.repeat(5000)}`]) {
      for (const size of [7, 1024, 1 << 16]) {
        assert.throws(
          () => rowsOf(split(text, size), 4096),
          (e: unknown) => e instanceof LineTooLong && e.line === 3 && /line 3 is longer than 4096 bytes/.test(e.message),
          `chunks of ${size}`,
        );
      }
    }
  });

  test('CR line ends split right after the CR: every row comes out whole', () => {
    const text = 'a,b\r1,2\r3,4\r5,6\r';
    for (let size = 1; size <= text.length; size++) {
      assert.deepEqual(rowsOf(split(text, size)).rows, [['a', 'b'], ['1', '2'], ['3', '4'], ['5', '6']], `chunks of ${size}`);
    }
  });
});
