/** Read an OpenStreetMap extract, PBF or XML, by extension (or by its first bytes). */
import { open } from 'node:fs/promises';
import type { OsmExtract, OsmReadOptions } from './osm-extract.js';
import { readOsmPbf } from './pbf-reader.js';
import { readOsmXml } from './xml-reader.js';

export async function readOsm(file: string, options: OsmReadOptions = {}): Promise<OsmExtract> {
  const lower = file.toLowerCase();
  if (lower.endsWith('.pbf')) return readOsmPbf(file, options);
  if (lower.endsWith('.osm') || lower.endsWith('.xml')) return readOsmXml(file, options);
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    // XML, possibly after a byte-order mark and white space, starts with '<'
    const head = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').trimStart();
    return head.startsWith('<') ? readOsmXml(file, options) : readOsmPbf(file, options);
  } finally {
    await handle.close();
  }
}
