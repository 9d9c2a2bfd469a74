/** The PNG decoded by an independent decoder (pngjs): size, row order, colours, transparency. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { rampColour, rampIndex } from '../../../src/formats/colour-ramp.js';
import { writePng } from '../../../src/formats/png.js';
import { mulberry32 } from '../../helpers/random.js';

function decode(bytes: Uint8Array) {
  return PNG.sync.read(Buffer.from(bytes));
}

for (const [name, R] of [
  ['one pixel', 1],
  ['an odd size', 9],
  ['a large map', 500],
] as const) {
  test(`PNG, ${name}: each pixel the ramp colour of its cell, north up, unreachable transparent`, () => {
    const random = mulberry32(R);
    const max = 3600;
    const seconds = new Int32Array(R * R);
    for (let k = 0; k < seconds.length; k++) seconds[k] = random() < 0.3 ? -1 : Math.floor(random() * max);
    const png = decode(writePng({ resolution: R }, seconds, max));
    assert.equal(png.width, R);
    assert.equal(png.height, R);
    for (let row = 0; row < R; row++) {
      for (let i = 0; i < R; i++) {
        const v = seconds[i * R + (R - 1 - row)]!;
        const p = (row * R + i) * 4;
        if (v < 0) {
          assert.equal(png.data[p + 3], 0, `row ${row}, column ${i}: transparent`);
          continue;
        }
        assert.equal(png.data[p + 3], 255);
        const expected = rampColour((rampIndex(v, max) - 1) / 254);
        assert.deepEqual([png.data[p], png.data[p + 1], png.data[p + 2]], expected, `row ${row}, column ${i}`);
      }
    }
  });
}

test('the ramp: green at once, yellow at half the maximum, red at the maximum and past it', () => {
  assert.deepEqual(rampColour(0), [0x1a, 0x98, 0x50]);
  assert.deepEqual(rampColour(0.5), [0xfe, 0xe0, 0x8b]);
  assert.deepEqual(rampColour(1), [0xd7, 0x30, 0x27]);
  assert.equal(rampIndex(0, 3600), 1);
  assert.equal(rampIndex(3600, 3600), 255);
  assert.equal(rampIndex(99999, 3600), 255);
  assert.equal(rampIndex(-1, 3600), 0);
});

test('PNG: the first row is the north', () => {
  // a 2 × 2 grid: only the north-west cell (i 0, j 1) is reached
  const png = decode(writePng({ resolution: 2 }, Int32Array.of(-1, 0, -1, -1), 100));
  assert.equal(png.data[3], 255, 'top-left pixel opaque');
  assert.equal(png.data[4 * 2 + 3], 0, 'bottom-left pixel transparent');
});
