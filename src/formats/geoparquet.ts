/**
 * GeoParquet 1.1's file metadata (the footer's `geo` key) for a table of points in WGS84 longitude
 * and latitude: the geometry column WKB-encoded, its types, its bounding box. The CRS is left out,
 * which the specification defines as OGC:CRS84 (longitude, latitude on WGS84): the one way of saying
 * it that every reader understands without a PROJJSON parser.
 */
import type { TableColumn } from './table-columns.js';

export const GEOPARQUET_VERSION = '1.1.0';

/** The `geo` metadata of the `point` column of `columns`, with the box of the places the rows hold. */
export function geoParquetMetadata(columns: readonly TableColumn[], box: PointBox): { key: string; value: string } {
  const geometry = columns.find((c) => c.type === 'point');
  if (!geometry) throw new Error('a GeoParquet table has a point column');
  // the box is optional: a table of no rows has none
  const bbox = box.count === 0 ? {} : { bbox: [box.minX, box.minY, box.maxX, box.maxY] };
  const metadata = {
    version: GEOPARQUET_VERSION,
    primary_column: geometry.name,
    columns: { [geometry.name]: { encoding: 'WKB', geometry_types: ['Point'], ...bbox } },
  };
  return { key: 'geo', value: JSON.stringify(metadata) };
}

/** The box of the points written so far. */
export class PointBox {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  count = 0;

  add(x: number, y: number): void {
    this.count++;
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }
}
