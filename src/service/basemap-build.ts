/**
 * A coverage's basemap, made from its OpenStreetMap extract (osm/basemap-draft.ts, written by
 * formats/basemap-geojson.ts) and gzipped, in a worker thread (basemap-worker.ts): reading a
 * city's extract again takes about as long as its street network did, and must not hold the event
 * loop. It is made when first asked for and kept with the street data, not in snapshots: the
 * extract is read again once per loaded street network (a snapshot has none of it, and the street
 * network's worker does not wait for it).
 */
import { gzipSync } from 'node:zlib';
import { readOsm } from '../osm/read-osm.js';
import { basemapGeoJson, type BasemapSummary } from '../formats/basemap-geojson.js';
import { workerAnswer } from '../util/worker-answer.js';

export interface BasemapBody {
  json: Uint8Array;
  gzipped: Uint8Array;
  summary: BasemapSummary;
}

/** The basemap of the extract at `osmPath`, on this thread (the worker's work). */
export async function buildBasemap(osmPath: string): Promise<BasemapBody> {
  const osm = await readOsm(osmPath, { streets: false, basemap: true });
  const { text, summary } = basemapGeoJson(osm.basemap!);
  const json = Buffer.from(text);
  return { json, gzipped: gzipSync(json, { level: 6 }), summary };
}

/** `buildBasemap` in a worker thread; its errors keep their message. */
export async function basemapInWorker(osmPath: string): Promise<BasemapBody> {
  const answer = await workerAnswer<{ body?: BasemapBody; error?: string }>(new URL('./basemap-worker.js', import.meta.url), { osmPath });
  if (answer.body) return answer.body;
  throw new Error(answer.error ?? `${osmPath}: the basemap could not be made`);
}
