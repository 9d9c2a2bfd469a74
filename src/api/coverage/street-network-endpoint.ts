/**
 * `/v1/coverage/{region}/street_network` (Navette's own, not Navitia's): the coverage's streets as
 * GeoJSON lines (see formats/street-lines.ts), which the explorer draws as its background when it
 * has no tile server. The body is made once per street network and compressed once, by zlib's
 * thread pool, off the event loop; a coverage without an OSM extract answers an empty collection.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { streetLinesGeoJson } from '../../formats/street-lines.js';
import type { Generation } from '../../service/generation.js';
import type { StreetData } from '../../service/street-data.js';

export interface StreetNetworkBody {
  json: Buffer;
  gzipped: Buffer;
}

const gzipAsync = promisify(gzip);
const bodies = new WeakMap<StreetData, Promise<StreetNetworkBody>>();
const EMPTY = '{"type":"FeatureCollection","features":[]}';

export function streetNetworkBody(generation: Generation): Promise<StreetNetworkBody> {
  const streets = generation.streets;
  if (!streets) return encode(EMPTY);
  let body = bodies.get(streets);
  if (!body) {
    body = encode(streetLinesGeoJson(streets.data.graph));
    bodies.set(streets, body);
  }
  return body;
}

async function encode(text: string): Promise<StreetNetworkBody> {
  const json = Buffer.from(text);
  return { json, gzipped: await gzipAsync(json, { level: 6 }) };
}
