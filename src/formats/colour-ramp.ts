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

/** The RGB of the ramp of `stops` (RAMP_STOPS by default) at `t`, held within its first and last stop. */
export function rampColour(t: number, stops: readonly (readonly [number, number, number, number])[] = RAMP_STOPS): [number, number, number] {
  const x = Math.min(stops.at(-1)![0], Math.max(stops[0]![0], t));
  let k = 0;
  while (k < stops.length - 2 && x > stops[k + 1]![0]) k++;
  const [t0, r0, g0, b0] = stops[k]!;
  const [t1, r1, g1, b1] = stops[k + 1]!;
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

/**
 * The colours of a difference map (maps/difference-map.ts), a diverging ramp symmetric about 0,
 * relative to max_duration (T): blue where the map is faster than the compared one, a near-white
 * neutral at no change, red where it is slower; access gained and lost, the markers −T and +T,
 * have a darker blue and red of their own, so that a picture tells them from a large difference.
 * Stops, linearly interpolated in RGB, over the differences strictly between −T and T:
 *
 *   −1    #2166ac   blue (faster by nearly T)
 *   −0.5  #67a9cf   light blue
 *    0    #f7f7f7   neutral
 *    0.5  #ef8a62   light red
 *    1    #b2182b   red (slower by nearly T)
 *
 * As a palette: 0 transparent (both unreached), 1 gained access #053061, 2 to 254 the ramp (128 is
 * 0), 255 lost access #67001f.
 */
export const DIVERGING_STOPS: readonly [number, number, number, number][] = [
  [-1, 0x21, 0x66, 0xac],
  [-0.5, 0x67, 0xa9, 0xcf],
  [0, 0xf7, 0xf7, 0xf7],
  [0.5, 0xef, 0x8a, 0x62],
  [1, 0xb2, 0x18, 0x2b],
];
export const GAINED_COLOUR: readonly [number, number, number] = [0x05, 0x30, 0x61];
export const LOST_COLOUR: readonly [number, number, number] = [0x67, 0x00, 0x1f];
export const GAINED_INDEX = 1;
export const LOST_INDEX = 255;
/** The palette index of no change; the ramp spans this ± DIVERGING_HALF_STEPS. */
export const NEUTRAL_INDEX = 128;
const DIVERGING_HALF_STEPS = 126;

/** The RGB of the diverging ramp at `t` in [−1, 1]. */
export function divergingColour(t: number): [number, number, number] {
  return rampColour(t, DIVERGING_STOPS);
}

/**
 * The palette index of a difference: transparent for `nullValue`, the markers at ±max, else the
 * ramp's step nearest to its share of max (a real difference never reaches ±max, so the ramp stays
 * within 2 to 254).
 */
export function divergingIndex(difference: number, maxSec: number, nullValue: number): number {
  if (difference === nullValue) return TRANSPARENT_INDEX;
  if (difference >= maxSec) return LOST_INDEX;
  if (difference <= -maxSec) return GAINED_INDEX;
  const step = Math.round((difference / Math.max(1, maxSec)) * DIVERGING_HALF_STEPS);
  return NEUTRAL_INDEX + Math.min(DIVERGING_HALF_STEPS, Math.max(-DIVERGING_HALF_STEPS, step));
}

/** The diverging RGB palette: entry NEUTRAL_INDEX + k is the ramp at k / DIVERGING_HALF_STEPS, the markers at their ends. */
export function divergingPalette(): Uint8Array {
  const out = new Uint8Array(RAMP_ENTRIES * 3);
  for (let k = -DIVERGING_HALF_STEPS; k <= DIVERGING_HALF_STEPS; k++) out.set(divergingColour(k / DIVERGING_HALF_STEPS), (NEUTRAL_INDEX + k) * 3);
  out.set(GAINED_COLOUR, GAINED_INDEX * 3);
  out.set(LOST_COLOUR, LOST_INDEX * 3);
  return out;
}
