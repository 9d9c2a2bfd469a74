/**
 * Valid heat-map requests drawn at random (fast-check), for the fuzz test and its long run in
 * bench/: every combination of modes, speeds up to their maxima (where short edges cost 0 tenths
 * of a second), durations, resolutions, directions, datetimes and centres (stops, stop areas,
 * points on and off the street network, inside and far outside the coverage). Each should be
 * answered 200 with a well-formed map.
 */
import fc from 'fast-check';
import type { Generation } from '../../src/service/generation.js';

export interface FuzzCoverage {
  id: string;
  stopPoints: string[];
  stopAreas: string[];
  /** stop coordinates, to draw points near them (on or beside a street) */
  stopCoords: [number, number][];
  bbox: [number, number, number, number];
  /** datetimes within the production period */
  datetimes: string[];
}

/** What the fuzz needs of a loaded coverage. */
export function fuzzCoverage(id: string, generation: Generation, datetimes: string[]): FuzzCoverage {
  const sp = generation.tt.stopPoints;
  const stopCoords: [number, number][] = sp.ids.map((_, s) => [sp.lon[s]!, sp.lat[s]!]);
  const lons = stopCoords.map(([lon]) => lon);
  const lats = stopCoords.map(([, lat]) => lat);
  return {
    id,
    stopPoints: [...sp.ids],
    stopAreas: generation.tt.stopAreas.map((a) => a.id),
    stopCoords,
    bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
    datetimes,
  };
}

const MODES = ['walking', 'bike', 'bss', 'car', 'car_no_park', 'taxi'] as const;
const MAX_SPEED: Record<(typeof MODES)[number], number> = { walking: 4, bike: 15, bss: 15, car: 50, car_no_park: 50, taxi: 50 };

const modes = fc.uniqueArray(fc.constantFrom(...MODES), { minLength: 1, maxLength: 3 });

/** A centre: a stop point, a stop area, a point near a stop (metres to a few hundred metres off), anywhere in the box, or far away. */
function centre(c: FuzzCoverage): fc.Arbitrary<string> {
  const [minLon, minLat, maxLon, maxLat] = c.bbox;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...c.stopPoints) },
    { weight: 1, arbitrary: fc.constantFrom(...c.stopAreas) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...c.stopCoords), fc.double({ min: -0.005, max: 0.005, noNaN: true }), fc.double({ min: -0.005, max: 0.005, noNaN: true }))
        .map(([[lon, lat], dx, dy]) => `${lon + dx};${lat + dy}`),
    },
    { weight: 2, arbitrary: fc.tuple(fc.double({ min: minLon, max: maxLon, noNaN: true }), fc.double({ min: minLat, max: maxLat, noNaN: true })).map(([lon, lat]) => `${lon};${lat}`) },
    { weight: 1, arbitrary: fc.constantFrom('-180;-90', '180;90', '0;0', `${minLon - 1};${minLat}`, `${maxLon};${maxLat + 0.5}`) },
  );
}

/** A speed for `mode`: its maximum (zero-cost short edges), its minimum, or anything between. */
const speedOf = (mode: (typeof MODES)[number]) =>
  fc.oneof(fc.constant(MAX_SPEED[mode]), fc.constant(0.01), fc.double({ min: 0.5, max: MAX_SPEED[mode], noNaN: true }).map((v) => Math.round(v * 100) / 100));

/** The path and query of a valid heat map on coverage `c`, whose largest resolution is `maxResolution`. */
export function validHeatMapRequest(c: FuzzCoverage, maxResolution: number): fc.Arbitrary<string> {
  return fc
    .record({
      direction: fc.constantFrom('from', 'to'),
      place: centre(c),
      datetime: fc.constantFrom(...c.datetimes),
      first: modes,
      last: modes,
      direct: fc.option(modes, { nil: undefined }),
      speeds: fc.record(Object.fromEntries(MODES.map((m) => [m, fc.option(speedOf(m), { nil: undefined })])) as Record<(typeof MODES)[number], fc.Arbitrary<number | undefined>>),
      duration: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 600, max: 5400 })),
      resolution: fc.integer({ min: 1, max: maxResolution }),
      transfers: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
      directPath: fc.constantFrom('indifferent', 'none', 'only'),
      toPt: fc.option(fc.integer({ min: 0, max: 3600 }), { nil: undefined }),
      freeRadius: fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
      wheelchair: fc.boolean(),
    })
    .map((q) => {
      const params = [`${q.direction}=${encodeURIComponent(q.place)}`, `datetime=${q.datetime}`, `max_duration=${q.duration}`, `resolution=${q.resolution}`];
      for (const m of q.first) params.push(`first_section_mode[]=${m}`);
      for (const m of q.last) params.push(`last_section_mode[]=${m}`);
      for (const m of q.direct ?? []) params.push(`direct_path_mode[]=${m}`);
      for (const [m, v] of Object.entries(q.speeds)) if (v !== undefined) params.push(`${m}_speed=${v}`);
      if (q.transfers !== undefined) params.push(`max_nb_transfers=${q.transfers}`);
      if (q.directPath !== 'indifferent') params.push(`direct_path=${q.directPath}`);
      if (q.toPt !== undefined) params.push(`max_duration_to_pt=${q.toPt}`);
      if (q.freeRadius !== undefined) params.push(`free_radius_${q.direction}=${q.freeRadius}`);
      if (q.wheelchair) params.push('wheelchair=true');
      return `/v1/coverage/${c.id}/heat_maps?${params.join('&')}`;
    });
}

/** Why an answer to a valid request is wrong, or undefined when it is a well-formed map. */
export function mapProblem(status: number, body: string, url: string): string | undefined {
  if (status !== 200) return `status ${status}: ${body.slice(0, 200)}`;
  const json = JSON.parse(body) as { heat_maps?: { heat_matrix: { line_headers: unknown[]; lines: { duration: (number | null)[] }[] } }[] };
  const matrix = json.heat_maps?.[0]?.heat_matrix;
  if (!matrix) return 'no heat_matrix';
  const resolution = Number(/[?&]resolution=(\d+)/.exec(url)?.[1]);
  const maxDuration = Number(/[?&]max_duration=(\d+)/.exec(url)?.[1]);
  const R = matrix.lines.length;
  if (R !== resolution || matrix.line_headers.length !== R) return `a ${R} × ${matrix.line_headers.length} grid for resolution ${resolution}`;
  for (const line of matrix.lines) {
    if (line.duration.length !== R) return `a line of ${line.duration.length} cells in a grid of ${R}`;
    for (const d of line.duration) if (d !== null && !(Number.isInteger(d) && d >= 0 && d <= maxDuration)) return `a cell worth ${d} (max_duration ${maxDuration})`;
  }
  return undefined;
}
