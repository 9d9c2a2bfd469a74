/**
 * The explorer: a page served by Navette itself at `/` (explorer/ at the package's root: plain HTML,
 * CSS and two ES modules, no build step) with the map library it draws with (Leaflet, from the
 * package's own dependencies), so it works with no CDN and no internet. Files are read once, when
 * the app is built, and answered from memory with an ETag; `/explorer/settings.json` carries the
 * optional online background (a raster tile URL and its attribution) from the configuration, and
 * the heat map's colour ramp (formats/colour-ramp.ts), so that the page and the PNG agree.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DIVERGING_STOPS, GAINED_COLOUR, LOST_COLOUR, RAMP_STOPS } from '../../formats/colour-ramp.js';
import { MAX_BOUNDARIES } from '../../service/limits.js';
import { matches } from '../operations/http-cache.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import { basemapBody, registerBasemap } from './basemap-route.js';
import { streetNetworkBody } from '../coverage/street-network-endpoint.js';
import { registerCoverageView } from './coverage-view.js';

export interface ExplorerSettings {
  /** a raster tile URL template (`https://tile.example/{z}/{x}/{y}.png`) drawn under the coverage's streets */
  tileUrl?: string;
  /** the tiles' attribution, HTML; OpenStreetMap's by default */
  tileAttribution?: string;
}

export const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** The package's explorer/ folder, seen from this module compiled (dist/src/api/explorer/). */
const PAGE_DIR = fileURLToPath(new URL('../../../../explorer/', import.meta.url));
const LEAFLET_DIR = path.dirname(createRequire(import.meta.url).resolve('leaflet/dist/leaflet.js'));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

function file(dir: string, name: string): StaticFile {
  return staticFile(readFileSync(path.join(dir, name)), TYPES[path.extname(name)]!);
}

function staticFile(body: Buffer, type: string): StaticFile {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

export function registerExplorer(app: FastifyInstance, registry: CoverageRegistry, settings: ExplorerSettings = {}): void {
  const files = new Map<string, StaticFile>([
    ['/', file(PAGE_DIR, 'index.html')],
    ['/explorer/explorer.js', file(PAGE_DIR, 'explorer.js')],
    ['/explorer/accessibility.js', file(PAGE_DIR, 'accessibility.js')],
    ['/explorer/ramp.js', file(PAGE_DIR, 'ramp.js')],
    ['/explorer/scenarios.js', file(PAGE_DIR, 'scenarios.js')],
    ['/explorer/explorer.css', file(PAGE_DIR, 'explorer.css')],
    ['/explorer/leaflet/leaflet.js', file(LEAFLET_DIR, 'leaflet.js')],
    ['/explorer/leaflet/leaflet.css', file(LEAFLET_DIR, 'leaflet.css')],
    ...['layers.png', 'layers-2x.png', 'marker-icon.png', 'marker-icon-2x.png', 'marker-shadow.png'].map(
      (name): [string, StaticFile] => [`/explorer/leaflet/images/${name}`, file(path.join(LEAFLET_DIR, 'images'), name)],
    ),
    [
      '/explorer/settings.json',
      staticFile(
        Buffer.from(
          JSON.stringify({
            tile_url: settings.tileUrl ?? null,
            tile_attribution: settings.tileUrl ? (settings.tileAttribution ?? OSM_ATTRIBUTION) : null,
            // credited whenever OpenStreetMap's data is on screen (streets, basemap, a heat map over streets): the ODbL asks it
            osm_attribution: OSM_ATTRIBUTION,
            // the heat map's colours, as the PNG format draws them: [position, [r, g, b]]
            colour_ramp: RAMP_STOPS.map(([t, r, g, b]) => [t, [r, g, b]]),
            // a difference map's, likewise: the ramp over [−1, 1] of max_duration and the markers' colours
            diverging_ramp: { ramp: DIVERGING_STOPS.map(([t, r, g, b]) => [t, [r, g, b]]), lost: LOST_COLOUR, gained: GAINED_COLOUR },
            // the most `boundary_duration[]` an isochrones request takes
            max_boundaries: MAX_BOUNDARIES,
          }),
        ),
        TYPES['.json']!,
      ),
    ],
  ]);
  const answer = (req: FastifyRequest, reply: FastifyReply) => {
    const f = files.get(req.routeOptions.url ?? '')!;
    reply.header('etag', f.etag).header('cache-control', 'public, no-cache');
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, f.etag)) return reply.code(304).send();
    return reply.type(f.type).send(f.body);
  };
  for (const url of files.keys()) app.get(url, answer);
  registerCoverageView(app, registry);
  registerBasemap(app, registry);
  makeAhead(registry);
}

/**
 * The page's two heavy answers made as soon as a coverage's data is in, not at the first visit: the
 * street lines (a quarter of a second for a city, in slices on this thread) and the basemap (a
 * worker reading the extract again). Both are kept per street network, so a realtime update's new
 * generation finds them made; a failure is left for the request to report.
 */
function makeAhead(registry: CoverageRegistry): void {
  for (const coverage of registry.list()) {
    coverage.onSwap((generation) => {
      streetNetworkBody(generation).catch(() => {});
      basemapBody(generation, coverage.config.osm)?.catch(() => {});
    });
  }
}
