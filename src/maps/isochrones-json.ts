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
}

export function contourBands(grid: Grid, seconds: Int32Array, bands: Band[], simplifyM: number): BandShape[] {
  return bands.map((band) => ({ band, coordinates: isoband(grid, seconds, band.lo, band.hi, { simplifyM }) }));
}

const multiPolygon = (coordinates: MultiPolygonCoords) => `{"type":"MultiPolygon","coordinates":${JSON.stringify(coordinates)}}`;

/** Navitia's body: `isochrones[]` (its key order), then the publishers, links, warnings and context. */
export function isochronesBody(parts: Omit<HeatMapBodyParts, 'grid' | 'seconds'>, shapes: BandShape[]): Buffer {
  const items = shapes.map(
    ({ band, coordinates }) =>
      `{"geojson":${multiPolygon(coordinates)},"max_duration":${band.hi},"min_duration":${band.lo},"${parts.placeKey}":${parts.placeJson}` +
      `,"requested_date_time":"${parts.requestedDateTime}","min_date_time":"${band.minDateTime}","max_date_time":"${band.maxDateTime}"}`,
  );
  return Buffer.from(`{"isochrones":[${items.join(',')}],"feed_publishers":${parts.publishersJson},"links":[],"warnings":${warningsJson(parts.warnings)},"context":${parts.contextJson}}`);
}

/**
 * A GeoJSON FeatureCollection: one feature per band, its bounds in seconds as properties; the
 * warnings, when there are some, as a foreign member (RFC 7946 §6.1) after the features.
 */
export function bandsFeatureCollection(shapes: BandShape[], warnings: readonly Warning[]): Buffer {
  const features = shapes.map(
    ({ band, coordinates }) =>
      `{"type":"Feature","properties":{"min_duration":${band.lo},"max_duration":${band.hi},"min_date_time":"${band.minDateTime}","max_date_time":"${band.maxDateTime}"},"geometry":${multiPolygon(coordinates)}}`,
  );
  const foreign = warnings.length > 0 ? `,"warnings":${warningsJson(warnings)}` : '';
  return Buffer.from(`{"type":"FeatureCollection","features":[${features.join(',')}]${foreign}}`);
}
