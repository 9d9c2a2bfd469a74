/**
 * `/v1/coverage/{region}/street_network` (Navette's own, not Navitia's): the coverage's streets as
 * GeoJSON lines (see formats/street-lines.ts), which the explorer draws as its background when it
 * has no tile server. The body is made once per street network, STREETS_PER_TURN streets at a time
 * with a turn of the event loop between (rnv-mannheim's 55,941 take about 0.1 s in all), and
 * compressed once by zlib's thread pool; a coverage without an OSM extract answers an empty collection.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { StreetLinesWriter } from '../../formats/street-lines.js';
import type { Generation } from '../../service/generation.js';
import type { StreetData } from '../../service/street-data.js';
import { chooseEncoding } from '../../maps/heat-map-render.js';
import { inCoverage, type Endpoint } from '../endpoint.js';
import type { TargetOf } from '../targets.js';

export const streetNetworkEndpoint: Endpoint<TargetOf<'street_network'>> = {
  params: () => [],
  variesByEncoding: true,
  answer: (target, ctx) =>
    inCoverage(ctx, target.coverageRef, Math.floor(Date.now() / 1000), () => BARE_ENVELOPE, async ({ generation }) => {
      const body = await streetNetworkBody(generation);
      // compressed once per network: the compression plugin leaves it
      const gzipped = chooseEncoding(ctx.acceptEncoding) === 'gzip';
      return { body: gzipped ? body.gzipped : body.json, headers: { 'content-type': 'application/geo+json', ...(gzipped ? { 'content-encoding': 'gzip' } : {}) } };
    }),
};

/** An error of this endpoint is answered alone (it has no collection to wrap it). */
const BARE_ENVELOPE = { hasFilterKey: false, wrap: (errorJson: string) => `{"error":${errorJson}}` };

export interface StreetNetworkBody {
  json: Buffer;
  gzipped: Buffer;
}

const gzipAsync = promisify(gzip);
const bodies = new WeakMap<StreetData, Promise<StreetNetworkBody>>();
let empty: Promise<StreetNetworkBody> | undefined;

export function streetNetworkBody(generation: Generation): Promise<StreetNetworkBody> {
  const streets = generation.streets;
  if (!streets) return (empty ??= encode('{"type":"FeatureCollection","features":[]}'));
  let body = bodies.get(streets);
  if (!body) {
    body = write(streets).then(encode);
    bodies.set(streets, body);
  }
  return body;
}

/** Streets written between two turns of the event loop: a few milliseconds' work. */
const STREETS_PER_TURN = 2000;

async function write(streets: StreetData): Promise<string> {
  const writer = new StreetLinesWriter(streets.data.graph);
  while (!writer.done) {
    writer.writeNext(STREETS_PER_TURN);
    await nextTurn();
  }
  return writer.geoJson();
}

async function encode(text: string): Promise<StreetNetworkBody> {
  const json = Buffer.from(text);
  return { json, gzipped: await gzipAsync(json, { level: 6 }) };
}
