/**
 * `GET /explorer/coverage/{region}/basemap.geojson`: the coverage's basemap (water, parks, railways,
 * place names: formats/basemap-geojson.ts), made from its own OpenStreetMap extract in a worker
 * thread when first asked for, then answered from memory, gzipped once. It is kept per street
 * network (a reload of the extract makes it again). A coverage without an extract, or whose extract
 * has none of those, answers an empty collection: the page's background is then its streets alone.
 */
import type { FastifyInstance } from 'fastify';
import { chooseEncoding } from '../../maps/heat-map-render.js';
import { basemapInWorker, type BasemapBody } from '../../service/basemap-build.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import type { Generation } from '../../service/generation.js';
import type { StreetData } from '../../service/street-data.js';
import { coverageUnavailable, httpError, unknownRegion } from '../errors.js';

const EMPTY = Buffer.from('{"type":"FeatureCollection","truncated":false,"features":[]}');
const bodies = new WeakMap<StreetData, Promise<BasemapBody>>();

export function registerBasemap(app: FastifyInstance, registry: CoverageRegistry): void {
  app.get<{ Params: { region: string } }>('/explorer/coverage/:region/basemap.geojson', async (req, reply) => {
    const coverage = registry.get(req.params.region);
    if (!coverage) throw unknownRegion(req.params.region);
    const generation = coverage.generation;
    if (!generation) throw coverageUnavailable(coverage);
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('application/geo+json');
    const body = basemapBody(generation, coverage.config.osm);
    if (!body) return reply.send(EMPTY);
    let made: BasemapBody;
    try {
      made = await body;
    } catch (e) {
      bodies.delete(generation.streets!); // the next request tries again (the file may have been mid-write)
      throw httpError(500, 'internal_error', `The basemap of ${coverage.id} could not be made: ${(e as Error).message}`);
    }
    // compressed once: the compression plugin leaves a body that has its encoding
    if (chooseEncoding(req.headers['accept-encoding']) === 'gzip') return reply.header('content-encoding', 'gzip').send(asBuffer(made.gzipped));
    return reply.send(asBuffer(made.json));
  });
}

/** The basemap of a generation's street network, made once (undefined without an extract). */
export function basemapBody(generation: Generation, osmPath: string | undefined): Promise<BasemapBody> | undefined {
  const streets = generation.streets;
  if (!streets || !osmPath) return undefined;
  let body = bodies.get(streets);
  if (!body) {
    body = basemapInWorker(osmPath);
    bodies.set(streets, body);
  }
  return body;
}

/** A view of the bytes as a Buffer (no copy): a worker's Buffer arrives as a plain Uint8Array. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
