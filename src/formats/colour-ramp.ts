/**
 * The colours of a heat map picture: a ramp from green (reached at once) through yellow (half the
 * maximum duration) to red (the maximum), relative to the request's max_duration so that every map
 * uses the whole ramp. Stops, linearly interpolated in RGB:
 *
 *   0     #1a9850   green
 *   0.25  #91cf60   light green
 *   0.5   #fee08b   yellow
 *   0.75  #fc8d59   orange
 *   1     #d73027   red
 *
 * As a palette: index 0 is transparent (unreachable), indexes 1 to 255 the ramp from 0 to max.
 */
/** The ramp's stops: [position in [0, 1], red, green, blue] (the explorer page draws with them too). */
export const RAMP_STOPS: readonly [number, number, number, number][] = [
  [0, 0x1a, 0x98, 0x50],
  [0.25, 0x91, 0xcf, 0x60],
  [0.5, 0xfe, 0xe0, 0x8b],
  [0.75, 0xfc, 0x8d, 0x59],
  [1, 0xd7, 0x30, 0x27],
];

/** Palette entries: 0 transparent, then the ramp. */
export const RAMP_ENTRIES = 256;
export const TRANSPARENT_INDEX = 0;

/** The RGB of the ramp at `t` in [0, 1]. */
export function rampColour(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t));
  let k = 0;
  while (k < RAMP_STOPS.length - 2 && x > RAMP_STOPS[k + 1]![0]) k++;
  const [t0, r0, g0, b0] = RAMP_STOPS[k]!;
  const [t1, r1, g1, b1] = RAMP_STOPS[k + 1]!;
  const f = (x - t0) / (t1 - t0);
  return [Math.round(r0 + (r1 - r0) * f), Math.round(g0 + (g1 - g0) * f), Math.round(b0 + (b1 - b0) * f)];
}

/** The palette index of a duration: 0 for unreachable (negative), else 1 + its share of max on 254 steps. */
export function rampIndex(seconds: number, maxSec: number): number {
  if (seconds < 0) return TRANSPARENT_INDEX;
  return 1 + Math.min(RAMP_ENTRIES - 2, Math.floor((seconds / Math.max(1, maxSec)) * (RAMP_ENTRIES - 2)));
}

/** The RGB palette (PNG's PLTE): entry k ≥ 1 is the colour at (k − 1) / 254 of the ramp. */
export function rampPalette(): Uint8Array {
  const out = new Uint8Array(RAMP_ENTRIES * 3);
  for (let k = 1; k < RAMP_ENTRIES; k++) out.set(rampColour((k - 1) / (RAMP_ENTRIES - 2)), k * 3);
  return out;
}
