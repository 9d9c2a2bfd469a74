/** Validity of GeoJSON polygons by an independent geometry library (JSTS, the JTS Topology Suite). */
import GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';

const reader = new GeoJSONReader();

/** Why the geometry is not valid (self-intersection, ring crossing, hole outside…), or undefined. */
export function invalidity(geometry: { type: string; coordinates: unknown }): string | undefined {
  const op = new IsValidOp(reader.read(geometry));
  return op.isValid() ? undefined : String(op.getValidationError());
}

/** The area of a GeoJSON geometry in its own units (square degrees), by JSTS. */
export function jstsArea(geometry: { type: string; coordinates: unknown }): number {
  return reader.read(geometry).getArea();
}
