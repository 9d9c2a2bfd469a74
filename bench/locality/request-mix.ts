/**
 * The trips and places requests a country's users send, drawn (seeded) from the coverage's own
 * timetable over all its tiles, in a shuffled order, each kind equally often: a line's trips, a
 * later page of a line, a stop area's trips in the morning, the whole country's trips leaving in
 * five minutes (COUNTRY_WIDE, which may be left out), the trips near a stop, one trip by id at
 * depth 2, and the places whose name holds part of a stop's name (stop areas, or stop areas and
 * stop points).
 */
import type { Timetable } from '../../src/model/timetable.js';
import { mulberry32 } from '../../test/helpers/random.js';
import type { LoadRequest } from './latency-client.js';

/** The kind whose answer is the whole country's (every trip's first departure is looked at): the others are about one place or object. */
export const COUNTRY_WIDE = 'all trips leaving 8:00–8:05';

/** `count` requests on `coverage`, their times on `date` (YYYYMMDD: the generator's common Tuesday, bench/country/service-week.ts), local. */
export function requestMix(tt: Timetable, coverage: string, date: string, count: number, seed: number, withCountryWide = true): LoadRequest[] {
  const MORNING = { since: `${date}T070000`, until: `${date}T090000` };
  const FIVE_MINUTES = { since: `${date}T080000`, until: `${date}T080500` };
  const random = mulberry32(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const enc = encodeURIComponent;
  const base = `/v1/coverage/${coverage}`;
  // trips per line, for a page that exists
  const tripsOfLine = new Uint32Array(tt.lines.length);
  for (const line of tt.trips.line) tripsOfLine[line]!++;
  const servedLines = [...tripsOfLine.keys()].filter((l) => tripsOfLine[l]! > 0);
  // a stop of a random trip's (its pattern's): busy stops come up as often as they are served
  const { stopOffset, stops } = tt.patterns;
  const busyStop = () => {
    const pattern = tt.trips.pattern[pick(tt.trips.ids.length)]!;
    return stops[stopOffset[pattern]! + pick(stopOffset[pattern + 1]! - stopOffset[pattern]!)]!;
  };
  const kinds: Record<string, () => string> = {
    'trips of a line': () => `${base}/trips?filter=${enc(`line.uri=${JSON.stringify(tt.lines[servedLines[pick(servedLines.length)]!]!.id)}`)}&count=25`,
    'a line, a later page': () => {
      const line = servedLines[pick(servedLines.length)]!;
      return `${base}/lines/${enc(tt.lines[line]!.id)}/trips?count=25&start_page=${pick(Math.ceil(tripsOfLine[line]! / 25))}`;
    },
    'a stop area, 7–9 am': () => `${base}/stop_areas/${enc(tt.stopAreas[tt.stopPoints.area[busyStop()]!]!.id)}/trips?since=${MORNING.since}&until=${MORNING.until}&count=25`,
    [COUNTRY_WIDE]: () => `${base}/trips?since=${FIVE_MINUTES.since}&until=${FIVE_MINUTES.until}&count=25&start_page=${pick(4)}`,
    'trips within 300 m': () => {
      const s = busyStop();
      return `${base}/coord/${tt.stopPoints.lon[s]!.toFixed(6)};${tt.stopPoints.lat[s]!.toFixed(6)}/trips?distance=300&count=25`;
    },
    'a trip by id, depth 2': () => `${base}/trips/${enc(tt.trips.ids[pick(tt.trips.ids.length)]!)}?depth=2`,
    'places': () => {
      const name = tt.stopPoints.names[pick(tt.stopPoints.names.length)]!;
      const q = name.slice(0, 3 + pick(Math.max(1, name.length - 2)));
      return `${base}/places?q=${enc(q)}${random() < 0.5 ? '&type[]=stop_area&type[]=stop_point' : ''}`;
    },
  };
  const names = Object.keys(kinds).filter((kind) => withCountryWide || kind !== COUNTRY_WIDE);
  const requests = Array.from({ length: count }, (_, k) => ({ kind: names[k % names.length]!, path: kinds[names[k % names.length]!]!() }));
  // shuffled, so that no kind follows itself in a pattern the server's caches could learn
  for (let k = requests.length - 1; k > 0; k--) {
    const other = pick(k + 1);
    [requests[k], requests[other]] = [requests[other]!, requests[k]!];
  }
  return requests;
}

/** The kinds of `requestMix`, in its order. */
export function mixKinds(requests: LoadRequest[]): string[] {
  return [...new Set(requests.map((r) => r.kind))];
}
