/**
 * Parquet's encodings as parquet-encodings.ts writes them: byte for byte on the examples of the
 * format's Encodings.md, then whole tables of awkward values read back by DuckDB's reader (widths
 * up to 32 bits, wrapping deltas, runs across groups, nulls everywhere or nowhere, no rows at all).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ByteSink, writeDeltaBinaryPacked, writeRleHybrid } from '../../../src/formats/parquet-encodings.js';
import { parquetTableWriter } from '../../../src/formats/parquet-table.js';
import type { RowBlock, TableColumn } from '../../../src/formats/table-columns.js';
import { duckRows, sqlText } from '../../helpers/columnar-readers.js';

const bytesOf = (write: (sink: ByteSink) => void) => {
  const sink = new ByteSink(4);
  write(sink);
  return [...sink.view()];
};

test('RLE/bit-packed hybrid: the format\'s bit-packing example (0 to 7 at 3 bits), and a repeated run', () => {
  // Encodings.md: 0..7 at 3 bits packs as 10001000 11000110 11111010; one group of 8 is header (1 << 1) | 1
  assert.deepEqual(bytesOf((s) => writeRleHybrid(s, [0, 1, 2, 3, 4, 5, 6, 7], 8, 3)), [0x03, 0x88, 0xc6, 0xfa]);
  // ten 5s: header 10 << 1, then the value in one byte
  assert.deepEqual(bytesOf((s) => writeRleHybrid(s, new Int32Array(10).fill(5), 10, 3)), [20, 5]);
  // a value of 9 bits takes two bytes in a run; three values left over are padded to a group of 8
  assert.deepEqual(bytesOf((s) => writeRleHybrid(s, [300, 300, 300, 300, 300, 300, 300, 300, 1, 2, 3], 11, 9)), [16, 0x2c, 0x01, 0x03, 0x01, 0x04, 0x0c, 0, 0, 0, 0, 0, 0]);
});

test('DELTA_BINARY_PACKED: the format\'s two examples in blocks of 128 values and 4 miniblocks', () => {
  const header = (count: number, firstZigzag: number) => [0x80, 0x01, 0x04, count, firstZigzag];
  // 1 2 3 4 5: min delta 1, every miniblock 0 bits wide, no data
  assert.deepEqual(bytesOf((s) => writeDeltaBinaryPacked(s, Int32Array.of(1, 2, 3, 4, 5), 5)), [...header(5, 2), 0x02, 0, 0, 0, 0]);
  // 7 5 3 1 2 3 4 5: deltas -2 -2 -2 1 1 1 1, min -2 (zigzag 3), offsets 0 0 0 3 3 3 3 at 2 bits in one miniblock of 32
  assert.deepEqual(bytesOf((s) => writeDeltaBinaryPacked(s, Int32Array.of(7, 5, 3, 1, 2, 3, 4, 5), 8)), [...header(8, 14), 0x03, 2, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0, 0, 0]);
  // one value: the header alone; none: a header of count 0
  assert.deepEqual(bytesOf((s) => writeDeltaBinaryPacked(s, Int32Array.of(-3), 1)), header(1, 5));
  assert.deepEqual(bytesOf((s) => writeDeltaBinaryPacked(s, new Int32Array(0), 0)), header(0, 0));
});

/** A small deterministic generator (a linear congruential one), so a failure can be replayed. */
function numbers(seed: number) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
}

const dir = mkdtempSync(path.join(tmpdir(), 'navette-parquet-'));

async function roundTrip(name: string, columns: TableColumn[], blocks: RowBlock[]) {
  const chunks: Uint8Array[] = [];
  const writer = parquetTableWriter(columns, async (bytes) => void chunks.push(bytes));
  for (const b of blocks) await writer.write(b);
  await writer.finish();
  const file = path.join(dir, `${name}.parquet`);
  writeFileSync(file, Buffer.concat(chunks));
  return duckRows(`SELECT * FROM read_parquet(${sqlText(file)})`);
}

/** The rows the blocks hold, as DuckDB gives them back. */
function expectedRows(columns: TableColumn[], blocks: RowBlock[]) {
  const rows: Record<string, unknown>[] = [];
  for (const b of blocks) {
    for (let r = 0; r < b.rows; r++) {
      const row: Record<string, unknown> = {};
      columns.forEach((c, k) => {
        const v = b.values[k]![r];
        row[c.name] = c.type === 'id' ? c.ids![v as number] : c.type === 'int32' ? ((v as number) < 0 ? null : v) : v;
      });
      rows.push(row);
    }
  }
  return rows;
}

test('Parquet: values of every width, wrapping deltas, runs and nulls read back by DuckDB as written', async () => {
  const next = numbers(41);
  const ids = Array.from({ length: 700 }, (_, k) => `zone-${k}-é`);
  const columns: TableColumn[] = [
    { name: 'from_id', type: 'id', ids },
    { name: 'to_id', type: 'id', ids },
    { name: 'wide', type: 'int32' },
    { name: 'runs', type: 'int32' },
    { name: 'never', type: 'int32' },
    { name: 'share', type: 'float64' },
  ];
  // blocks of uneven lengths (not multiples of 8 or 128), from 1 to 333 rows
  const blocks: RowBlock[] = [];
  for (let b = 0; b < 40; b++) {
    const rows = b === 0 ? 1 : 1 + (next() % 333);
    const from = new Int32Array(rows).fill(next() % ids.length);
    const to = Int32Array.from({ length: rows }, () => next() % ids.length);
    // 0 to 2^31 - 1 in turn with nulls: deltas overflow int32 and need 32 bits
    const wide = Int32Array.from({ length: rows }, (_, r) => (r % 5 === 4 ? -1 : r % 2 === 0 ? 0x7fffffff : next() & 0x7fffffff));
    // long runs of one value broken by a few others, and nulls in runs
    const runs = Int32Array.from({ length: rows }, (_, r) => (r % 97 < 40 ? 7 : r % 97 < 60 ? -1 : next() % 4));
    const never = new Int32Array(rows).fill(-1);
    const share = Float64Array.from({ length: rows }, () => next() / 2 ** 32);
    blocks.push({ rows, values: [from, to, wide, runs, never, share] });
  }
  assert.deepEqual(await roundTrip('awkward', columns, blocks), expectedRows(columns, blocks));
});

test('Parquet: a table of no rows, and a dictionary of a single id', async () => {
  const columns: TableColumn[] = [{ name: 'from_id', type: 'id', ids: ['only'] }, { name: 't', type: 'int32' }];
  assert.deepEqual(await roundTrip('empty', columns, []), []);
  const blocks: RowBlock[] = [{ rows: 3, values: [new Int32Array(3), Int32Array.of(5, -1, 5)] }];
  assert.deepEqual(await roundTrip('single-id', columns, blocks), expectedRows(columns, blocks));
});
