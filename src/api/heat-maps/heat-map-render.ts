/**
 * The finished heat-map response: the JSON body and its compression, made where the map was
 * computed (a worker thread), so that the event loop only sends bytes.
 *
 * Heat maps are large (a 500 × 500 grid is about 1.3 MB of JSON) and made once per request: gzip
 * at level 1 compresses one in about 10 ms to under a quarter, where level 6 takes 2.5 times as
 * long for 15 % less and brotli even its fast levels 3 times as long. So gzip is preferred whenever
 * the client takes it.
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import type { HeatMapResult } from '../../routing/heat-map.js';
import { heatMapBody, type HeatMapBodyParts } from './heat-map-json.js';

export type BodyEncoding = 'gzip' | 'br' | 'deflate';

/** The parts of the response the request decides: everything but the grid. */
export interface HeatMapRender extends Omit<HeatMapBodyParts, 'grid' | 'seconds'> {
  encoding: BodyEncoding | null;
}

export interface RenderedHeatMap {
  body: Uint8Array;
  encoding: BodyEncoding | null;
}

/** Bodies shorter than this go uncompressed (as every other answer of the server). */
const COMPRESS_FROM = 1024;

export function renderHeatMap(result: HeatMapResult, render: HeatMapRender): RenderedHeatMap {
  const { encoding, ...parts } = render;
  const json = heatMapBody({ ...parts, grid: result.grid, seconds: result.seconds });
  if (encoding === null || json.length < COMPRESS_FROM) return { body: json, encoding: null };
  switch (encoding) {
    case 'gzip':
      return { body: gzipSync(json, { level: 1 }), encoding };
    case 'deflate':
      return { body: deflateSync(json, { level: 1 }), encoding };
    case 'br':
      return { body: brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } }), encoding };
  }
}

/** The encoding to answer with, from an Accept-Encoding header: gzip, then br, then deflate; null for none. */
export function chooseEncoding(acceptEncoding: string | undefined): BodyEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    accepted.set(name, q);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  for (const encoding of ['gzip', 'br', 'deflate'] as const) if (ok(encoding)) return encoding;
  return null;
}
