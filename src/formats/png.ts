/**
 * A heat map as a PNG picture: one pixel per cell, north up, coloured by a ramp of
 * `colour-ramp.ts` relative to max_duration (travel times, or a difference map's diverging ramp),
 * unreachable cells transparent.
 *
 * Indexed colour (one byte per pixel, a 256-entry palette and a tRNS entry for the transparent
 * index) keeps the image a quarter of RGBA and quick to deflate. The part of PNG needed is four
 * chunks, so the writer is ours (zlib and CRC-32 from node:zlib); scanlines use filter 0 (none): the
 * palette indexes repeat in runs that deflate finds by itself, and no filter pass costs nothing.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Grid } from '../routing/grid.js';
import { RAMP_ENTRIES, rampIndex, rampPalette, TRANSPARENT_INDEX } from './colour-ramp.js';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** How a cell's value becomes a colour: a 256-entry RGB palette, index 0 transparent, and the index of a value. */
export interface PngRamp {
  palette: Uint8Array;
  index(value: number, maxDurationSec: number): number;
}

/** Travel times: the green-to-red ramp of colour-ramp.ts, -1 transparent. */
const TRAVEL_TIME_RAMP: PngRamp = { palette: rampPalette(), index: rampIndex };
/** tRNS: the alpha of the palette's first entries; the others are opaque. */
const ALPHAS = Uint8Array.of(...Array.from({ length: TRANSPARENT_INDEX + 1 }, (_, k) => (k === TRANSPARENT_INDEX ? 0 : 255)));

/** `seconds[i * R + j]` (i west to east, j south to north; -1 unreachable for travel times) as a PNG of R × R pixels coloured by `ramp`. */
export function writePng(grid: Pick<Grid, 'resolution'>, seconds: Int32Array, maxDurationSec: number, ramp: PngRamp = TRAVEL_TIME_RAMP): Uint8Array {
  const R = grid.resolution;
  const stride = R + 1; // the filter byte, then the row
  const raw = new Uint8Array(stride * R);
  for (let row = 0; row < R; row++) {
    const j = R - 1 - row; // the first row is the north
    const at = row * stride + 1;
    for (let i = 0; i < R; i++) raw[at + i] = ramp.index(seconds[i * R + j]!, maxDurationSec);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, R);
  view.setUint32(4, R);
  header[8] = 8; // bits per index
  header[9] = 3; // indexed colour
  const chunks = [chunk('IHDR', header), chunk('PLTE', ramp.palette.subarray(0, RAMP_ENTRIES * 3)), chunk('tRNS', ALPHAS), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', new Uint8Array(0))];
  return Buffer.concat([SIGNATURE, ...chunks]);
}

/** length, type, data, CRC-32 of type and data */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
