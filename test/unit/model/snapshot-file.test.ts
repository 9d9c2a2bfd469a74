/**
 * The snapshot encoding and file: a tree comes back equal, its arrays on one shared buffer; a file
 * that is not a snapshot, of another format, cut short or damaged is refused with a clear message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync, readdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeTree, encodeTree } from '../../../src/model/snapshot-codec.js';
import { checksumOf, chunkViews, readSnapshotFile, SNAPSHOT_FORMAT, SnapshotError, writeSnapshotFile } from '../../../src/model/snapshot-file.js';
import { mulberry32 } from '../../helpers/random.js';
import { Worker } from 'node:worker_threads';

const KINDS = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array] as const;

/** A tree of every kind of value a snapshot holds, drawn at random. */
function randomTree(seed: number) {
  const random = mulberry32(seed);
  const array = (i: number) => {
    const Kind = KINDS[i % KINDS.length]!;
    const a = new Kind(Math.floor(random() * 50));
    for (let j = 0; j < a.length; j++) a[j] = Math.floor((random() - 0.5) * 1000) + (Kind === Float64Array ? random() : 0);
    return a;
  };
  const arrays = KINDS.map((_, i) => array(i));
  const codes = new Map<string, Uint32Array>();
  for (let i = 0; i < 30; i++) codes.set(`code ${i} é`, Uint32Array.from({ length: i % 4 }, () => Math.floor(random() * 1e6)));
  return {
    arrays,
    shared: arrays[5], // the same array again
    empty: new Float64Array(0),
    subarray: arrays[7]!.subarray(2, 5),
    codes,
    otherMap: new Map<number, unknown>([[1, { a: 'x' }], [2, null]]),
    strings: ['', 'a', '€ ü 中', 'a"b\\c'],
    numbers: [0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 40],
    holes: [1, undefined, 'x'],
    nested: { deeper: { list: [{ id: 'S1', lon: 2.35, flag: true }], none: null } },
  };
}

test('a tree comes back equal; its typed arrays are views on one SharedArrayBuffer; an array met twice is one view', () => {
  for (const seed of [1, 2, 3]) {
    const tree = randomTree(seed);
    const encoded = encodeTree(tree);
    const block = new SharedArrayBuffer(encoded.byteLength);
    let at = 0;
    for (const chunk of encoded.chunks) {
      assert.ok(chunk.byteLength > 0);
      new Uint8Array(block).set(chunk, at);
      at += chunk.byteLength;
    }
    assert.equal(at, encoded.byteLength);
    const back = decodeTree(JSON.parse(JSON.stringify(encoded.description)), block) as ReturnType<typeof randomTree>;
    assert.deepStrictEqual(back, tree);
    for (const a of back.arrays) {
      assert.equal(a.buffer, block);
      assert.equal(a.byteOffset % 8, 0);
    }
    assert.equal(back.shared, back.arrays[5], 'one view for one array');
    assert.equal(back.codes.get('code 3 é')!.buffer, block);
    assert.ok(Number.isNaN(back.numbers[3]));
    assert.ok(1 in back.holes && back.holes[1] === undefined);
  }
});

test('values a snapshot cannot hold are refused at encoding, with their path', () => {
  assert.throws(() => encodeTree({ a: { when: new Date() } }), /\.a\.when is a Date/);
  assert.throws(() => encodeTree({ f: () => 1 }), /\.f is a function/);
  assert.throws(() => encodeTree({ b: Buffer.from('x') }), /\.b is a Buffer/);
  assert.throws(() => encodeTree({ list: [{ $a: 1 }] }), /\.list\[0\]\.\$a: keys starting with \$ are reserved/);
});

test('the file: written through a temporary file, read back equal; the meta is seen before the data', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-snapshot-'));
  const file = path.join(dir, 'x.snapshot');
  const tree = randomTree(7);
  const bytes = await writeSnapshotFile(file, { origin: 'test' }, tree);
  assert.equal(readFileSync(file).length, bytes);
  assert.deepEqual(readdirSync(dir), ['x.snapshot'], 'no temporary file left');
  const seen: unknown[] = [];
  const { meta, tree: back } = await readSnapshotFile<{ origin: string }>(file, (m) => void seen.push(m.origin));
  assert.deepEqual(seen, ['test']);
  assert.equal(meta.origin, 'test');
  assert.deepStrictEqual(back, tree);
  await assert.rejects(
    readSnapshotFile(file, () => {
      throw new SnapshotError('refused by its reader');
    }),
    /refused by its reader/,
  );
});

test("read and written in pieces (as a country's data past 4 GB is): the same file and tree whatever the pieces' size, a damaged piece refused", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-snapshot-'));
  const whole = path.join(dir, 'whole.snapshot');
  const pieces = path.join(dir, 'pieces.snapshot');
  const tree = randomTree(3);
  await writeSnapshotFile(whole, { origin: 'test' }, tree);
  // 7-byte pieces: every array and the block cross several; the file is the same bytes
  await writeSnapshotFile(pieces, { origin: 'test' }, tree, 7);
  assert.deepEqual(readFileSync(pieces), readFileSync(whole));
  for (const chunk of [1, 8, 13, 1 << 30]) assert.deepStrictEqual((await readSnapshotFile(whole, () => {}, chunk)).tree, tree, `pieces of ${chunk} bytes`);
  // a byte changed near the end (in the block's last pieces) is caught by the pieces' checksum
  const bad = readFileSync(whole);
  bad[bad.length - 3]! ^= 0x10;
  writeFileSync(pieces, bad);
  await assert.rejects(readSnapshotFile(pieces, () => {}, 5), /checksum/);
});

test('the checksum in pieces is the CRC-32 of the whole; the pieces cover a buffer in order', () => {
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
  const whole = crc32(bytes);
  for (const chunk of [1, 3, 64, 999, 1000, 4096]) {
    assert.equal(checksumOf([bytes], 0, chunk), whole);
    assert.equal(checksumOf([bytes.subarray(0, 10), new Uint8Array(0), bytes.subarray(10)], 0, chunk), whole);
  }
  const views = chunkViews(bytes.buffer, 300, 100, 850);
  assert.deepEqual(views.map((v) => [v.byteOffset, v.byteLength]), [[100, 300], [400, 300], [700, 250]]);
});

test('a file that is not a snapshot, of another format, cut short or damaged is refused, saying so', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-snapshot-'));
  const file = path.join(dir, 'x.snapshot');
  const accept = () => undefined;
  const refusal = async (why: RegExp) => {
    const error = await readSnapshotFile(file, accept).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof SnapshotError, `refused: ${String(error)}`);
    assert.match(error.message, why);
  };

  await refusal(/cannot open .*x\.snapshot: ENOENT/);
  writeFileSync(file, 'stop_id,stop_name\n');
  await refusal(/is not a Navette snapshot/);

  await writeSnapshotFile(file, {}, randomTree(3));
  const good = readFileSync(file);
  const other = Buffer.from(good);
  other.writeUInt32LE(SNAPSHOT_FORMAT + 1, 16);
  writeFileSync(file, other);
  await refusal(new RegExp(`has snapshot format ${SNAPSHOT_FORMAT + 1}, this version of Navette reads format ${SNAPSHOT_FORMAT}`));

  writeFileSync(file, good);
  truncateSync(file, good.length - 3);
  await refusal(/is damaged: \d+ bytes where its header announces \d+/);

  const flipped = Buffer.from(good);
  flipped[flipped.length - 20]! ^= 0xff;
  writeFileSync(file, flipped);
  await refusal(/is damaged: its bytes do not match its checksum/);

  writeFileSync(file, good.subarray(0, 10));
  await refusal(/is not a Navette snapshot|is damaged/);

  writeFileSync(file, good);
  await readSnapshotFile(file, accept); // the good file is still read
});

/** Whether reading `bytes` as a snapshot is refused with a SnapshotError (never another error, never a tree). */
async function refused(file: string, bytes: Uint8Array): Promise<string | null> {
  writeFileSync(file, bytes);
  try {
    await readSnapshotFile(file, () => undefined);
  } catch (e) {
    return e instanceof SnapshotError ? e.message : `not a SnapshotError: ${String(e)}`;
  }
  return null;
}

test('one bit flipped anywhere in the file, header, meta, description or data: refused', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-snapshot-')), 'x.snapshot');
  await writeSnapshotFile(file, { origin: 'test', name: 'Mannheim Hauptbahnhof' }, randomTree(5));
  const good = readFileSync(file);
  const random = mulberry32(11);
  // every byte of the first 400 (prefix, meta, description), then 300 more at random
  const positions = [...Array.from({ length: Math.min(400, good.length) }, (_, i) => i), ...Array.from({ length: 300 }, () => Math.floor(random() * good.length))];
  for (const at of positions) {
    const bad = Buffer.from(good);
    bad[at]! ^= 1 << Math.floor(random() * 8);
    const why = await refused(file, bad);
    assert.ok(why !== null && !why.startsWith('not a'), `bit flipped at byte ${at} of ${good.length}: ${why ?? 'read as if good'}`);
  }
});

test('lengths in the header set to extremes, with a checksum that matches: refused before any is used', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-snapshot-')), 'x.snapshot');
  await writeSnapshotFile(file, { origin: 'test' }, randomTree(6));
  const good = readFileSync(file);
  const metaLength = good.readUInt32LE(20);
  const meta = JSON.parse(good.subarray(28, 28 + metaLength).toString('utf8')) as Record<string, unknown>;
  const rest = good.subarray(28 + metaLength);
  /** The file with `changes` made to its meta and its meta length field, checksummed again. */
  const crafted = (changes: Record<string, unknown>, metaLengthField?: number): Buffer => {
    const metaBytes = Buffer.from(JSON.stringify({ ...meta, ...changes }), 'utf8');
    const prefix = Buffer.from(good.subarray(0, 28));
    prefix.writeUInt32LE(metaLengthField ?? metaBytes.length, 20);
    let checksum = crc32(prefix.subarray(16, 24));
    checksum = crc32(metaBytes, checksum);
    checksum = crc32(rest, checksum);
    prefix.writeUInt32LE(checksum, 24);
    return Buffer.concat([prefix, metaBytes, rest]);
  };
  const extremes = [0, -1, 2 ** 31, 2 ** 40, -(2 ** 40), good.length + 1, 1.5, '12', null, 1e308];
  for (const key of ['descriptionBytes', 'blockBytes']) {
    for (const value of extremes) {
      const why = await refused(file, crafted({ [key]: value }));
      assert.ok(why !== null && !why.startsWith('not a'), `${key} = ${value}: ${why ?? 'read'}`);
    }
  }
  for (const field of [0, 1, 0xffffffff, 0x7fffffff, good.length, good.length + 1]) {
    const why = await refused(file, crafted({}, field));
    assert.ok(why !== null && !why.startsWith('not a'), `meta length field ${field}: ${why ?? 'read'}`);
  }
  // and the crafted file with nothing changed is read: the test crafts files as the writer does
  assert.equal(await refused(file, crafted({})), null);
});

test('the block on shared buffers cut between its arrays, each at most a piece but for an array longer alone; posted to a worker thread, every array arrives on its own bytes', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-snapshot-'));
  const file = path.join(dir, 'cut.snapshot');
  const tree = randomTree(11);
  await writeSnapshotFile(file, { origin: 'test' }, tree);
  const piece = 64;
  const back = (await readSnapshotFile(file, () => {}, piece)).tree as ReturnType<typeof randomTree>;
  assert.deepStrictEqual(back, tree);
  const byBuffer = new Map<ArrayBufferLike, number>();
  for (const a of back.arrays) byBuffer.set(a.buffer, (byBuffer.get(a.buffer) ?? 0) + 1);
  assert.ok(byBuffer.size > 1, 'several buffers');
  for (const a of back.arrays) {
    assert.equal(a.buffer.constructor, SharedArrayBuffer);
    if (a.byteLength > piece) assert.equal(byBuffer.get(a.buffer), 1, 'an array longer than a piece has a buffer of its own');
    else assert.ok(a.buffer.byteLength <= piece, `a buffer of ${a.buffer.byteLength} bytes`);
  }
  const worker = new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.once('message', (arrays) => parentPort.postMessage(arrays.map((a) => [a.constructor.name, a.buffer.constructor.name, Array.from(a)])));",
    { eval: true },
  );
  worker.postMessage(back.arrays);
  const received = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(
    received,
    tree.arrays.map((a) => [a.constructor.name, 'SharedArrayBuffer', Array.from(a)]),
  );
});
