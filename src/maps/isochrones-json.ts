/**
 * Isochrone bands drawn from a computed map, as Navitia's isochrones response and as a GeoJSON
 * FeatureCollection. Each band is contoured from the travel-time field of the map (not circles
 * around stops): see `formats/contours.ts`.
 */
import type { Grid } from '../routing/grid.js';
import { isoband, type MultiPolygonCoords } from '../formats/contours.js';
import type { HeatMapBodyParts } from './heat-map-json.js';
import { warningsJson, type Warning } from './map-warnings.js';

/** One band of isochrones: reachable before `hi` seconds and not before `lo`. */
export interface Band {
  lo: number;
  hi: number;
  /** the band's bounds as local date-times (Navitia's `min_date_time`, `max_date_time`) */
  minDateTime: string;
  maxDateTime: string;
}

export interface BandShape {
  band: Band;
  coordinates: MultiPolygonCoords;
  /** the departure window's percentile the band was drawn from */
  percentile?: number;
}

export function contourBands(grid: Grid, seconds: Int32Array, bands: Band[], simplifyM: number, percentile?: number): BandShape[] {
  return bands.map((band) => ({ band, coordinates: isoband(grid, seconds, band.lo, band.hi, { simplifyM }), ...(percentile === undefined ? {} : { percentile }) }));
}

const percentileKey = (shape: BandShape) => (shape.percentile === undefined ? '' : `,"percentile":${shape.percentile}`);

const multiPolygon = (coordinates: MultiPolygonCoords) => `{"type":"MultiPolygon","coordinates":${JSON.stringify(coordinates)}}`;

/** Navitia's body: `isochrones[]` (its key order), then the publishers, links, warnings and context. */
export function isochronesBody(parts: Omit<HeatMapBodyParts, 'grid' | 'seconds'>, shapes: BandShape[]): Buffer {
  const items = shapes.map(
    (shape) =>
      `{"geojson":${multiPolygon(shape.coordinates)},"max_duration":${shape.band.hi},"min_duration":${shape.band.lo},"${parts.placeKey}":${parts.placeJson}` +
      `,"requested_date_time":"${parts.requestedDateTime}","min_date_time":"${shape.band.minDateTime}","max_date_time":"${shape.band.maxDateTime}"${percentileKey(shape)}}`,
  );
  return Buffer.from(`{"isochrones":[${items.join(',')}],"feed_publishers":${parts.publishersJson},"links":[],"warnings":${warningsJson(parts.warnings)},"context":${parts.contextJson}}`);
}

/**
 * A GeoJSON FeatureCollection: one feature per band, its bounds in seconds as properties; the
 * warnings, when there are some, as a foreign member (RFC 7946 §6.1) after the features.
 */
export function bandsFeatureCollection(shapes: BandShape[], warnings: readonly Warning[]): Buffer {
  const features = shapes.map(
    (shape) =>
      `{"type":"Feature","properties":{"min_duration":${shape.band.lo},"max_duration":${shape.band.hi},"min_date_time":"${shape.band.minDateTime}","max_date_time":"${shape.band.maxDateTime}"${percentileKey(shape)}},"geometry":${multiPolygon(shape.coordinates)}}`,
  );
  const foreign = warnings.length > 0 ? `,"warnings":${warningsJson(warnings)}` : '';
  return Buffer.from(`{"type":"FeatureCollection","features":[${features.join(',')}]${foreign}}`);
}
