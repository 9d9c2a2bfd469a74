/**
 * A table of points as FlatGeobuf (flatgeobuf's own header and feature builders), written feature
 * by feature as blocks come: the header first (the count of features is known before the rows, so
 * readers are told it), no spatial index (it would need every feature before the first one is
 * written; GDAL and QGIS read a file without one). EPSG:4326, one property per other column.
 */
import { buildHeader } from 'flatgeobuf/lib/mjs/generic/featurecollection.js';
import { buildFeature } from 'flatgeobuf/lib/mjs/generic/feature.js';
import { magicbytes } from 'flatgeobuf/lib/mjs/constants.js';
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js';
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js';
import type { IParsedGeometry } from 'flatgeobuf/lib/mjs/generic/geometry.js';
import { isNullInt32, type RowBlock, type TableColumn, type TableWriter } from './table-columns.js';

const WGS84 = 4326;

const PROPERTY_TYPES: Record<Exclude<TableColumn['type'], 'point'>, ColumnType> = { id: ColumnType.String, int32: ColumnType.Int, float64: ColumnType.Double, string: ColumnType.String };

function columnMeta(column: TableColumn): ColumnMeta {
  const type = PROPERTY_TYPES[column.type as keyof typeof PROPERTY_TYPES];
  const nullable = column.type === 'int32' || column.type === 'string';
  return { name: column.name, type, title: null, description: null, width: -1, precision: -1, scale: -1, nullable, unique: false, primary_key: false };
}

/** A column's value at a row as a feature's property. */
function propertyOf(column: TableColumn, values: RowBlock['values'][number], row: number): string | number | null {
  switch (column.type) {
    case 'id':
      return column.ids![(values as Int32Array)[row]!]!;
    case 'int32': {
      const v = (values as Int32Array)[row]!;
      return isNullInt32(v) ? null : v;
    }
    case 'float64':
      return (values as Float64Array)[row]!;
    default:
      return (values as (string | null)[])[row] ?? null;
  }
}

/** The FlatGeobuf file of `features` points, its bytes handed to `write` block by block. */
export function flatGeobufPointsWriter(columns: readonly TableColumn[], features: number, write: (bytes: Uint8Array) => Promise<void>): TableWriter {
  const at = columns.findIndex((c) => c.type === 'point');
  if (at < 0) throw new Error('a FlatGeobuf table has a point column');
  const point = columns[at]!;
  const properties = columns.map((column, c) => ({ column, c })).filter(({ c }) => c !== at);
  const header: HeaderMeta = {
    geometryType: GeometryType.Point,
    columns: properties.map(({ column }) => columnMeta(column)),
    envelope: null,
    featuresCount: features,
    indexNodeSize: 0,
    crs: null,
    title: null,
    description: null,
    metadata: null,
  };
  let started = false;
  let written = 0;
  return {
    async write(block) {
      const chunks: Uint8Array[] = [];
      if (!started) {
        chunks.push(magicbytes, buildHeader(header, WGS84));
        started = true;
      }
      const places = block.values[at] as Int32Array;
      for (let r = 0; r < block.rows; r++) {
        const k = places[r]!;
        // a point has coordinates only: no parts (the builder takes an absent list for none)
        const geometry = { xy: [point.lon![k]!, point.lat![k]!], type: GeometryType.Point } as IParsedGeometry;
        const values: Record<string, string | number | null> = {};
        for (const { column, c } of properties) values[column.name] = propertyOf(column, block.values[c]!, r);
        chunks.push(buildFeature(geometry, values, header));
      }
      written += block.rows;
      await write(Buffer.concat(chunks));
    },
    async finish() {
      if (!started) await write(Buffer.concat([magicbytes, buildHeader(header, WGS84)]));
      if (written !== features) throw new Error(`${written} features written where the header says ${features}`);
    },
  };
}
