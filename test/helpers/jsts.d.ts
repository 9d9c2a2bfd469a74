// The two parts of JSTS (a port of the JTS Topology Suite) the tests use to check geometries.
declare module 'jsts/org/locationtech/jts/io/GeoJSONReader.js' {
  export default class GeoJSONReader {
    read(geometry: object): JstsGeometry;
  }
  export interface JstsGeometry {
    getArea(): number;
    contains(other: JstsGeometry): boolean;
    covers(other: JstsGeometry): boolean;
  }
}
declare module 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js' {
  import type { JstsGeometry } from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
  export default class IsValidOp {
    constructor(geometry: JstsGeometry);
    isValid(): boolean;
    getValidationError(): unknown;
  }
}
