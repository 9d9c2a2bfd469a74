/** GTFS times (H:MM:SS, hours past 24 allowed) as seconds after the service day's midnight. */

/** Seconds, or null for an empty value (an untimed stop time). */
export function parseGtfsTime(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const m = /^(\d+):(\d\d):(\d\d)$/.exec(t);
  if (!m) throw new Error(`not a GTFS time: "${text}"`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

export function formatGtfsTime(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 0) throw new Error(`cannot write ${seconds} s as a GTFS time`);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Rounding of docs/scenarios.md: to the nearest second, halves up. */
export function roundHalfUp(seconds: number): number {
  return Math.floor(seconds + 0.5);
}
