/**
 * The diverging ramp of difference maps (formats/colour-ramp.ts): symmetric about no change, the
 * markers of lost and gained access in palette entries no real difference reaches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { divergingIndex, divergingPalette, GAINED_COLOUR, GAINED_INDEX, LOST_COLOUR, LOST_INDEX, NEUTRAL_INDEX, TRANSPARENT_INDEX } from '../../../src/formats/colour-ramp.js';

const T = 1800;
const NULL = -0x80000000;
const rgb = (palette: Uint8Array, k: number) => [...palette.subarray(k * 3, k * 3 + 3)];

test('no change is the neutral entry; a difference and its opposite sit symmetrically about it', () => {
  assert.equal(divergingIndex(0, T, NULL), NEUTRAL_INDEX);
  for (const d of [1, 7, 14, 15, 120, 900, 1799]) assert.equal(divergingIndex(d, T, NULL) + divergingIndex(-d, T, NULL), 2 * NEUTRAL_INDEX, `${d}`);
  assert.ok(divergingIndex(120, T, NULL) > NEUTRAL_INDEX && divergingIndex(-120, T, NULL) < NEUTRAL_INDEX, 'slower above, faster below');
});

test('the markers have entries of their own: the largest real differences stop one short of them', () => {
  assert.equal(divergingIndex(T, T, NULL), LOST_INDEX);
  assert.equal(divergingIndex(-T, T, NULL), GAINED_INDEX);
  assert.equal(divergingIndex(T - 1, T, NULL), LOST_INDEX - 1);
  assert.equal(divergingIndex(-(T - 1), T, NULL), GAINED_INDEX + 1);
  assert.equal(divergingIndex(NULL, T, NULL), TRANSPARENT_INDEX);
  // -1 is a difference, not "unreached" as in a travel-time map
  assert.equal(divergingIndex(-1, T, NULL), NEUTRAL_INDEX);
});

test('the palette: the neutral grey at no change, blue and red at the ends, the markers darker', () => {
  const palette = divergingPalette();
  assert.deepEqual(rgb(palette, NEUTRAL_INDEX), [0xf7, 0xf7, 0xf7]);
  assert.deepEqual(rgb(palette, GAINED_INDEX + 1), [0x21, 0x66, 0xac]);
  assert.deepEqual(rgb(palette, LOST_INDEX - 1), [0xb2, 0x18, 0x2b]);
  assert.deepEqual(rgb(palette, GAINED_INDEX), [...GAINED_COLOUR]);
  assert.deepEqual(rgb(palette, LOST_INDEX), [...LOST_COLOUR]);
});
