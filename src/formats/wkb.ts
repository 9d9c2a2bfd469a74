/** Well-Known Binary (ISO/OGC simple features) of a point: little-endian, type 1, x then y. */
const WKB_POINT_BYTES = 21;
const LITTLE_ENDIAN = 1;
const WKB_POINT = 1;

export function pointWkb(x: number, y: number): Uint8Array {
  const bytes = new Uint8Array(WKB_POINT_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, LITTLE_ENDIAN);
  view.setUint32(1, WKB_POINT, true);
  view.setFloat64(5, x, true);
  view.setFloat64(13, y, true);
  return bytes;
}
