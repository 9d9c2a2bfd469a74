/** The GeoTIFF read back by independent readers: geotiff.js always, GDAL's gdalinfo where installed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromArrayBuffer } from 'geotiff';
import { writeGeoTiff } from '../../../src/formats/geotiff.js';
import type { Grid } from '../../../src/routing/grid.js';
import { mulberry32 } from '../../helpers/random.js';

/** A grid of `R` cells per side with random seconds (about a fifth unreachable). */
function sample(R: number, box: Omit<Grid, 'resolution'>, seed: number): { grid: Grid; seconds: Int32Array } {
  const random = mulberry32(seed);
  const seconds = new Int32Array(R * R);
  for (let k = 0; k < seconds.length; k++) seconds[k] = random() < 0.2 ? -1 : Math.floor(random() * 7200);
  return { grid: { ...box, resolution: R }, seconds };
}

const MANNHEIM = { minLon: 8.38, minLat: 49.43, maxLon: 8.56, maxLat: 49.53 };

async function readBack(bytes: Uint8Array) {
  const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const image = await tiff.getImage();
  const [band] = (await image.readRasters()) as unknown as Int32Array[];
  return { image, band: band! };
}

for (const [name, R, seed] of [
  ['a small odd size', 7, 1],
  ['a size of several strips', 300, 2],
  ['one cell', 1, 3],
] as const) {
  test(`GeoTIFF, ${name}: geotiff.js reads the same values, size, box and georeferencing`, async () => {
    const { grid, seconds } = sample(R, MANNHEIM, seed);
    const { image, band } = await readBack(writeGeoTiff(grid, [{ seconds }]));
    assert.equal(image.getWidth(), R);
    assert.equal(image.getHeight(), R);
    // rows north to south, columns west to east
    for (let row = 0; row < R; row++) {
      for (let i = 0; i < R; i++) assert.equal(band[row * R + i], seconds[i * R + (R - 1 - row)], `row ${row}, column ${i}`);
    }
    const [minX, minY, maxX, maxY] = image.getBoundingBox();
    const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);
    close(minX!, grid.minLon);
    close(minY!, grid.minLat);
    close(maxX!, grid.maxLon);
    close(maxY!, grid.maxLat);
    assert.equal(image.getGDALNoData(), -1);
    const keys = image.getGeoKeys() as Record<string, number>;
    assert.equal(keys['GeographicTypeGeoKey'], 4326);
    assert.equal(keys['GTModelTypeGeoKey'], 2);
    assert.equal(keys['GTRasterTypeGeoKey'], 1);
    assert.equal(image.getSampleFormat(), 2);
    assert.equal(image.getBitsPerSample(), 32);
  });
}

test('GeoTIFF: a box that is not square keeps its own pixel size in each direction', async () => {
  const box = { minLon: 8.0, minLat: 49.0, maxLon: 8.5, maxLat: 49.1 };
  const { grid, seconds } = sample(10, box, 4);
  const { image } = await readBack(writeGeoTiff(grid, [{ seconds }]));
  const [dx, dy] = image.getResolution();
  assert.ok(Math.abs(dx! - 0.05) < 1e-12);
  assert.ok(Math.abs(dy! + 0.01) < 1e-12, 'north up: negative y resolution');
});

const gdalinfo = (() => {
  try {
    execFileSync('gdalinfo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test('GeoTIFF: GDAL reads its size, georeferencing, EPSG:4326, nodata and statistics', { skip: gdalinfo || process.env['CI'] === 'true' ? false : 'gdalinfo is not installed (Debian gdal-bin)' }, () => {
  const { grid, seconds } = sample(50, MANNHEIM, 5);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-tiff-')), 'map.tif');
  writeFileSync(file, writeGeoTiff(grid, [{ seconds }]));
  const info = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', file], { encoding: 'utf8' }));
  assert.deepEqual(info.size, [50, 50]);
  const [x0, dx, , y0, , dy] = info.geoTransform as number[];
  assert.ok(Math.abs(x0! - grid.minLon) < 1e-9 && Math.abs(y0! - grid.maxLat) < 1e-9);
  assert.ok(Math.abs(dx! - (grid.maxLon - grid.minLon) / 50) < 1e-12 && Math.abs(dy! + (grid.maxLat - grid.minLat) / 50) < 1e-12);
  assert.match(JSON.stringify(info.coordinateSystem), /4326/);
  const band = info.bands[0];
  assert.equal(band.type, 'Int32');
  assert.equal(band.noDataValue, -1);
  const valid = [...seconds].filter((v) => v >= 0);
  assert.equal(band.minimum, Math.min(...valid));
  assert.equal(band.maximum, Math.max(...valid));
});
