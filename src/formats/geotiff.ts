/**
 * A heat map as a GeoTIFF that GDAL and QGIS open as it is: one band of 32-bit signed integers, the
 * travel time in whole seconds, -1 for unreachable cells (declared as nodata with GDAL's tag),
 * georeferenced in EPSG:4326 by the grid's box (a pixel is an area: its corner is the box's).
 *
 * The part of TIFF needed is one image of a few tags, so the writer is ours rather than a library's
 * (the JavaScript GeoTIFF writers write uncompressed images only). Classic little-endian TIFF; rows
 * north to south in strips of about 64 kB, each a zlib stream (compression 8, "Adobe deflate", which
 * every reader has), no predictor: the unreachable cells come in long runs that deflate takes as they
 * are, and a predictor pass would cost more than it saves at level 1.
 */
import { deflateSync } from 'node:zlib';
import type { Grid } from '../routing/grid.js';

/** The value of unreachable cells, written as GDAL's nodata. */
export const TIFF_NODATA = -1;
const STRIP_BYTES = 64 * 1024;

const SHORT = 3;
const LONG = 4;
const ASCII = 2;
const DOUBLE = 12;
const TYPE_SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 };

interface Tag {
  id: number;
  type: number;
  values: number[] | string;
}

/**
 * One band of a GeoTIFF: `seconds[i * R + j]` (i west to east, j south to north, -1 unreachable),
 * and what it is. A Float32Array makes a band of 32-bit floats (an accessibility measure); the
 * bands of one file are of one type.
 */
export interface TiffBand {
  seconds: Int32Array | Float32Array;
  /** GDAL's band description (a departure window's `p50`…); none for a single map */
  description?: string;
}

/**
 * The bands as a GeoTIFF of R × R pixels: one band as before windows (chunky, no band metadata),
 * several as separate planes, each band's strips after the previous band's, with GDAL's band
 * descriptions. `nodata`: the value of cells without one (a difference map's, whose -1 is a value).
 */
export function writeGeoTiff(grid: Grid, bands: TiffBand[], nodata: number = TIFF_NODATA): Uint8Array {
  const R = grid.resolution;
  const rowsPerStrip = Math.max(1, Math.min(R, Math.floor(STRIP_BYTES / (R * 4))));
  const strips: Uint8Array[] = [];
  const float = bands[0]?.seconds instanceof Float32Array;
  if (bands.some((b) => b.seconds instanceof Float32Array !== float)) throw new TypeError('the bands of a GeoTIFF are all integers or all floats');
  const raw = float ? new Float32Array(rowsPerStrip * R) : new Int32Array(rowsPerStrip * R);
  for (const { seconds } of bands) {
    for (let top = 0; top < R; top += rowsPerStrip) {
      const rows = Math.min(rowsPerStrip, R - top);
      for (let r = 0; r < rows; r++) {
        const j = R - 1 - (top + r); // the first row is the north
        const at = r * R;
        for (let i = 0; i < R; i++) raw[at + i] = seconds[i * R + j]!;
      }
      // typed arrays are in the platform's order: little-endian on every platform Node runs on
      strips.push(deflateSync(new Uint8Array(raw.buffer, 0, rows * R * 4), { level: 1 }));
    }
  }
  const n = bands.length;
  const perBand = (value: number) => Array.from({ length: n }, () => value);
  const dLon = (grid.maxLon - grid.minLon) / R;
  const dLat = (grid.maxLat - grid.minLat) / R;
  const tags: Tag[] = [
    { id: 256, type: LONG, values: [R] }, // ImageWidth
    { id: 257, type: LONG, values: [R] }, // ImageLength
    { id: 258, type: SHORT, values: perBand(32) }, // BitsPerSample
    { id: 259, type: SHORT, values: [8] }, // Compression: deflate
    { id: 262, type: SHORT, values: [1] }, // PhotometricInterpretation: BlackIsZero
    { id: 273, type: LONG, values: strips.map(() => 0) }, // StripOffsets, set below
    { id: 277, type: SHORT, values: [n] }, // SamplesPerPixel
    { id: 278, type: LONG, values: [rowsPerStrip] }, // RowsPerStrip
    { id: 279, type: LONG, values: strips.map((s) => s.length) }, // StripByteCounts
    { id: 284, type: SHORT, values: [n > 1 ? 2 : 1] }, // PlanarConfiguration: chunky for one band, planes for several
    ...(n > 1 ? [{ id: 338, type: SHORT, values: perBand(0).slice(1) }] : []), // ExtraSamples: the bands after the first, unspecified
    { id: 339, type: SHORT, values: perBand(float ? 3 : 2) }, // SampleFormat: signed integer, or IEEE float
    { id: 33550, type: DOUBLE, values: [dLon, dLat, 0] }, // ModelPixelScale
    { id: 33922, type: DOUBLE, values: [0, 0, 0, grid.minLon, grid.maxLat, 0] }, // ModelTiepoint: the north-west corner
    {
      id: 34735, // GeoKeyDirectory: version 1.1.0, 4 keys, each (id, location 0 = the value itself, count 1, value)
      type: SHORT,
      values: [1, 1, 0, 4, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326, 2054, 0, 1, 9102],
      // GTModelType geographic, GTRasterType PixelIsArea, GeographicType WGS 84, angular unit degree
    },
    ...(bands.some((b) => b.description) ? [{ id: 42112, type: ASCII, values: `${gdalMetadata(bands)}\0` }] : []), // GDAL_METADATA
    { id: 42113, type: ASCII, values: `${nodata}\0` }, // GDAL_NODATA
  ];

  // layout: header, IFD, the values too long for their entry, then the strips
  const ifdSize = 2 + tags.length * 12 + 4;
  let extra = 8 + ifdSize;
  const extraOffsets = tags.map((t) => {
    const size = byteSize(t);
    if (size <= 4) return -1;
    const at = extra;
    extra += size + (size & 1); // word-aligned
    return at;
  });
  let stripAt = extra;
  const offsets = tags.find((t) => t.id === 273)!.values as number[];
  strips.forEach((s, k) => {
    offsets[k] = stripAt;
    stripAt += s.length;
  });

  const out = new Uint8Array(stripAt);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]); // "II", 42
  view.setUint32(4, 8, true);
  view.setUint16(8, tags.length, true);
  tags.forEach((tag, k) => {
    const entry = 10 + k * 12;
    view.setUint16(entry, tag.id, true);
    view.setUint16(entry + 2, tag.type, true);
    view.setUint32(entry + 4, tag.values.length, true);
    const where = extraOffsets[k]! < 0 ? entry + 8 : extraOffsets[k]!;
    if (extraOffsets[k]! >= 0) view.setUint32(entry + 8, where, true);
    writeValues(view, where, tag);
  });
  view.setUint32(10 + tags.length * 12, 0, true); // no next IFD
  for (let k = 0; k < strips.length; k++) out.set(strips[k]!, offsets[k]!);
  return out;
}

function byteSize(tag: Tag): number {
  return tag.values.length * TYPE_SIZE[tag.type]!;
}

function writeValues(view: DataView, at: number, tag: Tag): void {
  const size = TYPE_SIZE[tag.type]!;
  for (let k = 0; k < tag.values.length; k++) {
    const p = at + k * size;
    const v = tag.values[k]!;
    if (tag.type === ASCII) view.setUint8(p, (v as string).charCodeAt(0));
    else if (tag.type === SHORT) view.setUint16(p, v as number, true);
    else if (tag.type === LONG) view.setUint32(p, v as number, true);
    else view.setFloat64(p, v as number, true);
  }
}

/** GDAL's metadata document naming each band (`DESCRIPTION`, role `description`, sample from 0). */
function gdalMetadata(bands: TiffBand[]): string {
  const items = bands.map((b, k) => (b.description ? `<Item name="DESCRIPTION" sample="${k}" role="description">${b.description}</Item>` : ''));
  return `<GDALMetadata>${items.join('')}</GDALMetadata>`;
}
