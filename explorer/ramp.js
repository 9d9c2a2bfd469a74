// A colour ramp read at a fraction: stops [[fraction, [r, g, b]], …] in ascending order, the colour
// between two stops interpolated linearly; outside the first and last stops, the end colours.
export function rampAt(ramp, fraction) {
  const x = Math.min(ramp[ramp.length - 1][0], Math.max(ramp[0][0], fraction));
  let k = 0;
  while (k < ramp.length - 2 && x > ramp[k + 1][0]) k++;
  const [t0, c0] = ramp[k];
  const [t1, c1] = ramp[k + 1];
  return c0.map((c, i) => Math.round(c + (c1[i] - c) * ((x - t0) / (t1 - t0))));
}
