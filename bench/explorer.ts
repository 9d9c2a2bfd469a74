/**
 * The explorer's first paint and page weight on Porto Alegre (two feeds and the street extract of
 * ../shared/data/porto-alegre), as a planner meets it: `navette serve` started, the browser opened
 * on the page as soon as the server says it serves. `npm run bench:explorer`.
 *
 * - first paint: from the server's "serving" line to the streets painted on the map (the page's
 *   own first-contentful-paint is printed beside it), then for a second visit from the page's
 *   opening;
 * - page weight: the bytes the browser received (headers and bodies as sent, so compressed), every
 *   request the page makes until the network is idle, the basemap included, and the largest ones.
 *
 * Needs Debian's Chromium (`CHROMIUM_PATH` to use another).
 */
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../test/helpers/serve.js';
import { SHARED_DATA } from '../test/helpers/shared-data.js';

// the callbacks given to page.evaluate run in the page, where the DOM is
declare const document: any;
declare const performance: any;

const POA = path.join(SHARED_DATA, 'porto-alegre');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
// a tab already open, as a planner's browser is: its start is not the server's
const firstPage = await browser.newPage({ viewport: { width: 1200, height: 800 } });
const server = await startServer(['--gtfs', path.join(POA, 'gtfs-eptc.zip'), '--gtfs', path.join(POA, 'gtfs-trensurb.zip'), '--osm', path.join(POA, 'osm.pbf'), '--id', 'poa']);
const readyAt = performance.now();
const origin = new URL(server.base).origin;

try {
  const first = await load(readyAt, firstPage);
  const second = await load(performance.now(), await browser.newPage({ viewport: { width: 1200, height: 800 } }));
  for (const [name, since, run] of [
    ['first visit, opened when the server said it serves', 'the server was ready', first],
    ['second visit', 'the page was opened', second],
  ] as const) {
    console.log(`${name}:`);
    console.log(`  first paint: streets on the map ${run.paintedMs.toFixed(0)} ms after ${since} (the page's first-contentful-paint: ${run.fcpMs.toFixed(0)} ms after navigation; the streets received at ${run.streetsAt.toFixed(0)} ms and drawn at ${run.drawnMs.toFixed(0)} ms)`);
    console.log(`  page weight: ${(run.bytes / 1e3).toFixed(1)} kB transferred in ${run.requests} requests, of which:`);
    for (const [url, bytes] of run.largest) console.log(`    ${(bytes / 1e3).toFixed(1).padStart(7)} kB  ${url}`);
    console.log(`    ${(run.basemapBytes / 1e3).toFixed(1).padStart(7)} kB  the basemap`);
  }
} finally {
  await browser.close();
  server.process.kill();
}

/** One visit of `page`, opened at `since` (ms, this process's clock): its streets painted, its network idle. */
async function load(since: number, page: Page) {
  const sizes: Promise<[string, number]>[] = [];
  page.on('requestfinished', (request) =>
    sizes.push(request.sizes().then((s) => [new URL(request.url()).pathname, s.responseHeadersSize + s.responseBodySize] as [string, number])),
  );
  await page.goto(`${origin}/?coverage=poa`);
  await page.waitForFunction(() => {
    for (const canvas of document.querySelectorAll('.leaflet-overlay-pane canvas')) {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < data.length; i += 4 * 97) if (data[i] > 0) return true;
    }
    return false;
  }, null, { polling: 'raf', timeout: 30_000 });
  const paintedMs = performance.now() - since;
  const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
  const drawnMs = await page.evaluate(() => performance.getEntriesByName('streets-drawn')[0]?.startTime ?? NaN);
  const streetsAt = await page.evaluate(() => performance.getEntriesByType('resource').find((e: any) => e.name.endsWith('/street_network'))?.responseEnd ?? NaN);
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  await page.close();
  const bytes = all.reduce((sum, [, b]) => sum + b, 0);
  const basemapBytes = all.find(([url]) => url.endsWith('/basemap.geojson'))?.[1] ?? 0;
  return { paintedMs, fcpMs, drawnMs, streetsAt, bytes, basemapBytes, requests: all.length, largest: all.sort((a, b) => b[1] - a[1]).slice(0, 4) };
}
