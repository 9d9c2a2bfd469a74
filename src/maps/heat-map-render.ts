/**
 * The finished map response, made where the map was computed (a worker thread), so that the event
 * loop only sends bytes: Navitia's heat matrix or isochrones, GeoJSON bands, a GeoTIFF or a PNG, the
 * JSON ones compressed.
 *
 * Heat maps are large (a 500 × 500 grid is about 1.3 MB of JSON) and made once per request: gzip
 * at level 1 compresses one in about 10 ms to under a quarter, where level 6 takes 2.5 times as
 * long for 15 % less and brotli even its fast levels 3 times as long. So gzip is preferred whenever
 * the client takes it.
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import type { HeatMapResult } from '../routing/heat-map.js';
import { writeGeoTiff } from '../formats/geotiff.js';
import { writePng, type PngRamp } from '../formats/png.js';
import { divergingIndex, divergingPalette } from '../formats/colour-ramp.js';
import { DIFFERENCE_NULL, type DifferenceResult } from './difference-map.js';
import { heatMapBody, type HeatMapBodyParts } from './heat-map-json.js';
import { bandsFeatureCollection, contourBands, isochronesBody, type Band } from './isochrones-json.js';
import { WARNINGS, type Warning } from './map-warnings.js';
import { LINK_RADIUS_M } from '../model/street-graph.js';

export type BodyEncoding = 'gzip' | 'br' | 'deflate';

/** What the computed map is answered as. */
export type MapFormat =
  | { kind: 'heat_matrix' }
  | { kind: 'isochrones'; bands: Band[]; simplifyM: number }
  | { kind: 'geojson'; bands: Band[]; simplifyM: number }
  | { kind: 'tiff' }
  | { kind: 'png'; maxDurationSec: number };

/** The parts of the response the request decides: everything but the grid. */
export interface HeatMapRender extends Omit<HeatMapBodyParts, 'grid' | 'seconds'> {
  format: MapFormat;
  encoding: BodyEncoding | null;
  /** the map's max_duration, which the nothing-reached warning quotes */
  maxDurationSec: number;
}

export interface RenderedHeatMap {
  body: Uint8Array;
  contentType: string;
  encoding: BodyEncoding | null;
  /** the answer's warnings, also for the formats whose body cannot carry them (the API sends their ids as a header) */
  warnings: readonly Warning[];
}

/** Bodies shorter than this go uncompressed (as every other answer of the server). */
const COMPRESS_FROM = 1024;

export function renderHeatMap(result: HeatMapResult, render: HeatMapRender): RenderedHeatMap {
  const { encoding, format, ...request } = render;
  const { grid, seconds, percentiles } = result;
  // a window's one-band formats draw its selected percentile (`seconds`)
  const selected = percentiles?.[result.selected ?? 0]?.percentile;
  const warnings = withComputedWarnings(request.warnings, result, render.maxDurationSec);
  const parts = { ...request, warnings };
  const answer = (body: Uint8Array, contentType: string, bodyEncoding: BodyEncoding | null) => ({ ...compressed(body, contentType, bodyEncoding), warnings });
  switch (format.kind) {
    case 'heat_matrix':
      return answer(heatMapBody({ ...parts, grid, seconds, ...(percentiles ? { percentiles } : {}) }), JSON_TYPE, encoding);
    case 'isochrones': {
      const shapes = percentiles
        ? percentiles.flatMap((map) => contourBands(grid, map.seconds, format.bands, format.simplifyM, map.percentile))
        : contourBands(grid, seconds, format.bands, format.simplifyM);
      return answer(isochronesBody(parts, shapes), JSON_TYPE, encoding);
    }
    case 'geojson':
      return answer(bandsFeatureCollection(contourBands(grid, seconds, format.bands, format.simplifyM, selected), warnings), 'application/geo+json', encoding);
    case 'tiff':
      return answer(
        percentiles ? writeGeoTiff(grid, percentiles.map((map) => ({ seconds: map.seconds, description: `p${map.percentile}` }))) : writeGeoTiff(grid, [{ seconds }]),
        'image/tiff',
        null,
      );
    case 'png':
      return answer(writePng(grid, seconds, format.maxDurationSec), 'image/png', null);
  }
}

/**
 * A difference map's answer (difference-map.ts): the heat matrix of the differences, a GeoTIFF band
 * of them per map (DIFFERENCE_NULL as nodata, described `difference` or `difference p50`), or a PNG
 * of the selected one on the diverging ramp. The bands of a difference have no meaning: the API
 * refuses isochrones and GeoJSON before computing one.
 */
export function renderDifference(diff: DifferenceResult, render: HeatMapRender): RenderedHeatMap {
  const { encoding, format, ...request } = render;
  const { grid, maps } = diff;
  const warnings = withComputedWarnings(request.warnings, diff.own, render.maxDurationSec);
  const answer = (body: Uint8Array, contentType: string, bodyEncoding: BodyEncoding | null) => ({ ...compressed(body, contentType, bodyEncoding), warnings });
  switch (format.kind) {
    case 'heat_matrix':
      return answer(heatMapBody({ ...request, warnings, grid, seconds: maps[0]!.seconds, difference: { comparison: diff.comparison, maps } }), JSON_TYPE, encoding);
    case 'tiff': {
      const bands = maps.map((map) => ({ seconds: map.seconds, description: map.percentile === undefined ? 'difference' : `difference p${map.percentile}` }));
      return answer(writeGeoTiff(grid, bands, DIFFERENCE_NULL), 'image/tiff', null);
    }
    case 'png':
      return answer(writePng(grid, maps[diff.selected]!.seconds, format.maxDurationSec, DIFFERENCE_RAMP), 'image/png', null);
    case 'isochrones':
    case 'geojson':
      throw new Error(`a difference map has no ${format.kind} answer`);
  }
}

/** The diverging ramp of colour-ramp.ts over a difference map's cells, DIFFERENCE_NULL transparent. */
const DIFFERENCE_RAMP: PngRamp = { palette: divergingPalette(), index: (value, maxSec) => divergingIndex(value, maxSec, DIFFERENCE_NULL) };

const JSON_TYPE = 'application/json; charset=utf-8';

/** The request's warnings and those only the computation knows: stops reached off the streets, nothing reached. */
function withComputedWarnings(given: readonly Warning[], result: Pick<HeatMapResult, 'reachedCells' | 'vehicleStops' | 'unlinkedStops'>, maxDurationSec: number): readonly Warning[] {
  if (result.unlinkedStops === 0 && result.reachedCells > 0) return given;
  const warnings = [...given];
  if (result.unlinkedStops > 0) warnings.push(WARNINGS.stopsOffStreets(String(result.unlinkedStops), String(result.vehicleStops), String(LINK_RADIUS_M)));
  if (result.reachedCells === 0) warnings.push(WARNINGS.nothingReached(String(maxDurationSec)));
  return warnings;
}

function compressed(body: Uint8Array, contentType: string, encoding: BodyEncoding | null): Omit<RenderedHeatMap, 'warnings'> {
  if (encoding === null || body.length < COMPRESS_FROM) return { body, contentType, encoding: null };
  switch (encoding) {
    case 'gzip':
      return { body: gzipSync(body, { level: 1 }), contentType, encoding };
    case 'deflate':
      return { body: deflateSync(body, { level: 1 }), contentType, encoding };
    case 'br':
      return { body: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }), contentType, encoding };
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
