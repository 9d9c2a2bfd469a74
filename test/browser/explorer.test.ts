/**
 * The explorer in a real browser (Debian's Chromium, driven by playwright-core) against a real
 * `navette serve`:
 *
 * - the demo town: the page loads with no outside request and no accessibility tab (no point set),
 *   a point clicked on the map gives a heat map painted on the canvas and a readout of the cell
 *   under the pointer, the isochrones are drawn as shapes, and the trips browser goes from a line to
 *   a trip's stop times; its scenario, plan2030, picked on the heat-map tab, draws its new line and
 *   stop, holds the data freshness at the base schedule, and compared with the base gives a
 *   difference map with cells gained; picking the base again takes the line away;
 * - Porto Alegre's two feeds and street extract (../shared/data), a planner's first look: the map
 *   opens on the streets (they span most of it), OpenStreetMap and the bus feed's publisher are
 *   credited, the page opens on a day and hour of bus service, so a heat map drawn with the
 *   defaults reaches bus stops farther than walking could, a clicked trip is drawn on the map, and
 *   an empty map says so rather than inviting a hover; with its hexagons as a point set, the
 *   accessibility tab draws every hexagon's count and a clicked place's. Each step's screenshot is
 *   kept under the system's temporary folder (the paths are printed).
 *
 * On failure a screenshot is saved under the system's temporary folder (its path is printed).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/serve.js';
import { SHARED_DATA, SHARED_DATA_MISSING, sharedDataRequired } from '../helpers/shared-data.js';

// the callbacks given to page.evaluate run in the page, where the DOM is (the project compiles without its types)
declare const document: any;

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Without the browser the suite is skipped (with this reason), except under CI, where it fails. */
const NO_BROWSER = existsSync(CHROMIUM) || process.env['CI'] === 'true' ? undefined : `${CHROMIUM} not found (Debian's chromium package): the explorer's browser test is skipped`;
// the flags a closed network needs: no background connections, no first-run or update checks
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let server: RunningServer;
let browser: Browser;
let page: Page;
let origin: string;
const outside: string[] = [];
const pageErrors: string[] = [];

before(async () => {
  if (NO_BROWSER) return;
  server = await startServer(['--config', 'data/demo/navette.json']);
  origin = new URL(server.base).origin;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

after(async () => {
  await browser?.close();
  server?.process.kill();
});

/** Run a step; on failure keep a screenshot of the page and say where. */
async function step(name: string, body: () => Promise<void>, on: () => Page = () => page): Promise<void> {
  try {
    await body();
  } catch (e) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-explorer-')), `${name.replace(/\W+/g, '-')}.png`);
    await on().screenshot({ path: file }).catch(() => {});
    console.error(`explorer test: screenshot of the failed step "${name}" in ${file}`);
    throw e;
  }
}

/** The pixels of the heat-map canvas that hold a colour (alpha above 0), and the canvas's size. */
const paintedPixels = () =>
  page.evaluate(() => {
    const canvas = document.getElementById('heat-canvas');
    if (!canvas) return { painted: 0, total: 0 };
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
    return { painted, total: canvas.width * canvas.height };
  });

test('the explorer: a heat map from a clicked point, its cells read by hovering, isochrones, and a trip from the trips browser', { skip: NO_BROWSER, timeout: 120_000 }, async () => {
  await step('load', async () => {
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    assert.equal(await page.inputValue('#coverage'), 'demo');
    // the coverage's own streets are the background: drawn on Leaflet's canvas
    await page.waitForFunction(() => document.querySelectorAll('.leaflet-overlay-pane canvas').length > 0);
    // the demo town has no point set: no accessibility tab, once /point_sets has answered
    await page.waitForSelector('#access-tab[data-point-sets]', { state: 'attached', timeout: 20_000 });
    assert.equal(await page.getAttribute('#access-tab', 'data-point-sets'), '0');
    assert.equal(await page.isVisible('#access-tab'), false);
  });

  await step('search', async () => {
    // a stop found by its name, accents and case aside, through /places
    await page.fill('#place-search', 'valmont GARE');
    await page.waitForSelector('#place-results li', { timeout: 20_000 });
    await page.locator('#place-results li').first().click();
    assert.match((await page.textContent('#place-chosen'))!, /^Valmont Gare \(/);
    assert.match((await page.textContent('#request-url'))!, /\/v1\/coverage\/demo\/places\?q=valmont%20GARE/);
  });

  await step('heat map', async () => {
    await page.selectOption('#coverage', 'demo');
    const box = (await page.locator('#map').boundingBox())!;
    // the middle of the map is Valmont's centre (the view fits the coverage's shape)
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    assert.match((await page.textContent('#place-chosen'))!, /^point /);
    await page.fill('#max-duration', '20');
    await page.click('#draw');
    await page.waitForSelector('#heat-canvas', { timeout: 30_000 });
    const { painted, total } = await paintedPixels();
    assert.ok(painted > 500, `painted cells: ${painted} of ${total}`);
    assert.ok(painted < total, 'a 20-minute map leaves cells unreached');
    const url = (await page.textContent('#request-url'))!;
    assert.match(url, /^\/v1\/coverage\/demo\/heat_maps\?from=[\d.]+;[\d.]+&datetime=\d{8}T\d\d0000&max_duration=1200&/);
    // the cell under the clicked point is reached in a few minutes at most
    await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 2 + 2);
    const readout = (await page.textContent('#cell-readout'))!;
    const minutes = /^(\d+) min \((\d+) s\)$/.exec(readout);
    assert.ok(minutes, `readout: ${readout}`);
    assert.ok(Number(minutes[2]) <= 300, readout);
    assert.equal(await page.locator('#legend .ticks span').last().textContent(), '20');
  });

  await step('heat map over a window of departures: the percentile asked, said in the status', async () => {
    await page.selectOption('#window', '3600');
    await page.selectOption('#percentile', '95');
    await page.click('#draw');
    await page.waitForFunction(() => /p95 of the departures/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.match((await page.textContent('#request-url'))!, /&departure_window=3600&percentiles\[\]=95/);
    assert.match((await page.textContent('#status'))!, /^[\d,]+ cells reached within 20 min \(p95 of the departures every minute for 60 min\)\./);
    await page.selectOption('#window', '0');
  });

  await step('a difference map: realtime against the base schedule, on the diverging ramp, offered for realtime heat maps only', async () => {
    assert.equal(await page.isVisible('#compare'), false, 'no comparison for a base-schedule map');
    await page.selectOption('#freshness', 'realtime');
    assert.equal(await page.isVisible('#compare'), true);
    await page.selectOption('#compare', 'base_schedule');
    await page.click('#draw');
    await page.waitForFunction(() => /^Realtime against the base schedule/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.match((await page.textContent('#request-url'))!, /&data_freshness=realtime&compare_data_freshness=base_schedule/);
    // the demo has no realtime source: nothing changes, every reached cell is the ramp's neutral colour
    assert.match((await page.textContent('#status'))!, /: 0 cells slower, 0 faster, 0 lost, 0 gained\./);
    const { painted } = await paintedPixels();
    assert.ok(painted > 500, `painted cells: ${painted}`);
    assert.deepEqual(await page.locator('#legend .ticks span').allTextContents(), ['-20', '-10', '0', '+10', '+20']);
    assert.equal(await page.locator('#legend .swatch').count(), 2);
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 2 + 2);
    assert.equal(await page.textContent('#cell-readout'), 'no change');
    // isochrones take no comparison: the select goes away
    await page.selectOption('#view', 'isochrones');
    assert.equal(await page.isVisible('#compare'), false);
    await page.selectOption('#view', 'heat_maps');
    await page.selectOption('#compare', '');
    await page.selectOption('#freshness', 'base_schedule');
  });

  await step('a scenario: picked, its line drawn, compared with the base, then the base again', async () => {
    // the demo town has one scenario, once /scenarios has answered
    await page.waitForSelector('#scenario-label[data-scenarios]', { state: 'attached', timeout: 20_000 });
    assert.equal(await page.getAttribute('#scenario-label', 'data-scenarios'), '1');
    assert.deepEqual(await page.locator('#scenario option').allTextContents(), ["today's (base)", 'plan2030']);
    assert.equal(await page.isVisible('#scenario-compare'), false, 'nothing to compare on the base');
    assert.equal(await page.locator('path.scenario-line').count(), 0);
    // a scenario is a plan over the base schedule: picking one holds the freshness there
    await page.selectOption('#freshness', 'realtime');
    await page.selectOption('#scenario', 'plan2030');
    assert.equal(await page.inputValue('#freshness'), 'base_schedule');
    assert.equal(await page.isDisabled('#freshness'), true);
    assert.equal(await page.isVisible('#compare'), false, 'no realtime comparison beside a scenario');
    assert.match((await page.textContent('#scenario-description'))!, /^Ligne 7 from Valmont Gare/);
    // its new line (both directions) and its new stop on the map, named in the legend
    await page.waitForFunction(() => document.querySelectorAll('path.scenario-line').length > 0, null, { timeout: 20_000 });
    assert.equal(await page.locator('path.scenario-line.scenario-added').count(), 2);
    assert.equal(await page.locator('path.scenario-stop').count(), 1);
    const line = (await page.locator('path.scenario-line').first().boundingBox())!;
    assert.ok(line.width > 20 && line.height > 20, `the line spans ${line.width} × ${line.height} px`);
    assert.deepEqual(await page.locator('#scenario-legend div').allTextContents(), ['Ligne 7: added', 'new stop: Les Jardins']);
    // from the start of line 2, 25 % faster in the plan, on a Tuesday morning (the plan's weekdays)
    await page.fill('#place-search', 'Tuileries');
    await page.waitForSelector('#place-results li', { timeout: 20_000 });
    await page.locator('#place-results li').first().click();
    assert.match((await page.textContent('#place-chosen'))!, /^Les Tuileries \(/);
    await page.fill('#datetime', '2026-11-24T08:00');
    await page.check('#scenario-compare');
    await page.click('#draw');
    await page.waitForFunction(() => /^plan2030 against the base schedule/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 30_000 });
    const url = (await page.getAttribute('#request-url', 'href'))!;
    assert.match(url, /&datetime=20261124T080000&max_duration=1200&.*&data_freshness=base_schedule&scenario=plan2030&compare_scenario=base/);
    assert.doesNotMatch(url, /compare_data_freshness/);
    const status = (await page.textContent('#status'))!;
    const counts = /: (\d+) cells gained, (\d+) lost, (\d+) faster, (\d+) slower\./.exec(status);
    assert.ok(counts, status);
    // the status's counts are the answer's, and the faster line 2 brings cells within reach
    const difference = await page.evaluate(async (u: string) => ((await (await fetch(u)).json()) as any).heat_maps[0].difference, url);
    assert.deepEqual(counts.slice(1).map(Number), [difference.gained_cells, difference.lost_cells, difference.faster_cells, difference.slower_cells]);
    assert.ok(difference.gained_cells > 0, status);
    const { painted } = await paintedPixels();
    assert.ok(painted > 0, `painted cells: ${painted}`);
    assert.equal(await page.locator('#legend .swatch').count(), 2);
    // the scenario's line stays drawn over the difference map
    assert.ok((await page.locator('path.scenario-line').count()) > 0);
    // isochrones take no comparison
    await page.selectOption('#view', 'isochrones');
    assert.equal(await page.isDisabled('#scenario-compare'), true);
    await page.selectOption('#view', 'heat_maps');
    // the base again: the line and its legend go, the freshness is free
    await page.selectOption('#scenario', '');
    await page.waitForFunction(() => document.querySelectorAll('path.scenario-line, path.scenario-stop').length === 0, null, { timeout: 5000 });
    assert.equal(await page.isVisible('#scenario-legend'), false);
    assert.equal(await page.isVisible('#scenario-compare'), false);
    assert.equal(await page.isDisabled('#freshness'), false);
    await page.click('#draw');
    await page.waitForFunction(() => /cells reached within 20 min/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.doesNotMatch((await page.getAttribute('#request-url', 'href'))!, /scenario/);
  });

  await step('isochrones', async () => {
    await page.selectOption('#view', 'isochrones');
    await page.click('#draw');
    await page.waitForFunction(() => document.querySelector('#legend .bands') !== null, null, { timeout: 30_000 });
    // two bands of 10 minutes, drawn as filled shapes on the map
    assert.deepEqual(await page.locator('#legend .bands div').allTextContents(), ['0–10 min', '10–20 min']);
    assert.match((await page.textContent('#request-url'))!, /\/isochrones\?.*boundary_duration\[\]=600/);
    assert.equal(await page.locator('#heat-canvas').count(), 0);
  });

  await step('trips', async () => {
    await page.click('.tab[data-tab="trips"]');
    await page.waitForSelector('#lines li', { timeout: 20_000 });
    await page.locator('#lines li').first().click();
    await page.waitForSelector('#trips li.trip', { timeout: 20_000 });
    // trips under their direction, each labelled by where it goes
    assert.match((await page.locator('#trips li').first().textContent())!, /^→ .+ \(\d+\)$/);
    assert.match((await page.locator('#trips li.trip').first().textContent())!, /^\d\d:\d\d → ./);
    await page.locator('#trips li.trip').first().click();
    await page.waitForSelector('#stop-times:not([hidden]) tbody tr', { timeout: 20_000 });
    const rows = await page.locator('#stop-times tbody tr').count();
    assert.ok(rows >= 2, `stop times: ${rows}`);
    // no realtime source on the demo: no realtime column, a note instead
    assert.equal(await page.locator('#stop-times tbody tr td:nth-child(4)').count(), 0);
    assert.equal(await page.isVisible('#realtime-head'), false);
    assert.equal(await page.isVisible('#realtime-note'), true);
  });

  await step('a scenario named in the address', async () => {
    await page.goto(`${origin}/?coverage=demo&scenario=plan2030`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('path.scenario-line').length > 0, null, { timeout: 20_000 });
    assert.equal(await page.inputValue('#scenario'), 'plan2030');
    assert.equal(await page.inputValue('#freshness'), 'base_schedule');
  });

  assert.deepEqual(outside, [], 'the page asks nothing of other hosts');
  assert.deepEqual(pageErrors, []);
});

// ---- Porto Alegre: a planner's first look at real data ---------------------------------------------

const POA = path.join(SHARED_DATA, 'porto-alegre');
const POA_SKIP = NO_BROWSER ?? (SHARED_DATA_MISSING && !sharedDataRequired() ? SHARED_DATA_MISSING : undefined);
/** Walking 30 minutes at the default 1.12 m/s goes 2 km at most: a cell reached farther was reached by a vehicle. */
const WALK_30_MIN_M = 30 * 60 * 1.12;

/** The box, in page pixels, of the painted pixels of the map's vector canvases, and the map's own box. */
const paintedStreetsBox = (p: Page) =>
  p.evaluate(() => {
    const mapBox = document.getElementById('map').getBoundingClientRect();
    let box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const canvas of document.querySelectorAll('.leaflet-overlay-pane canvas')) {
      const r = canvas.getBoundingClientRect();
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const sx = r.width / canvas.width;
      const sy = r.height / canvas.height;
      for (let y = 0; y < canvas.height; y += 2) {
        for (let x = 0; x < canvas.width; x += 2) {
          if (data[(y * canvas.width + x) * 4 + 3] === 0) continue;
          const px = r.left + x * sx;
          const py = r.top + y * sy;
          if (px < mapBox.left || px > mapBox.right || py < mapBox.top || py > mapBox.bottom) continue;
          box = { left: Math.min(box.left, px), top: Math.min(box.top, py), right: Math.max(box.right, px), bottom: Math.max(box.bottom, py) };
        }
      }
    }
    return { widthShare: (box.right - box.left) / mapBox.width, heightShare: (box.bottom - box.top) / mapBox.height };
  });

/** One step of the zoom control, and the animation's end (a click during it is dropped). */
async function zoomBy(p: Page, way: 'in' | 'out'): Promise<void> {
  await p.click(`.leaflet-control-zoom-${way}`);
  await p.waitForFunction(() => document.querySelector('.leaflet-zoom-anim') === null, null, { timeout: 5000 });
  await p.waitForTimeout(300);
}

test('Porto Alegre: the first view shows the streets with their credits, a default heat map reaches bus stops, a clicked trip is drawn', { skip: POA_SKIP, timeout: 180_000 }, async () => {
  const shots = mkdtempSync(path.join(tmpdir(), 'navette-explorer-poa-'));
  const poa = await startServer([
    ...['--gtfs', path.join(POA, 'gtfs-eptc.zip'), '--gtfs', path.join(POA, 'gtfs-trensurb.zip'), '--osm', path.join(POA, 'osm.pbf'), '--id', 'poa'],
    ...['--points', `hexgrid=${path.join(POA, 'hexgrid.csv')}`],
  ]);
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(e.message));
  const shot = async (name: string) => {
    const file = path.join(shots, `${name}.png`);
    await p.screenshot({ path: file });
    console.log(`explorer test: Porto Alegre, ${name}: ${file}`);
  };
  try {
    await step(
      'poa first view',
      async () => {
        await p.goto(`${new URL(poa.base).origin}/?coverage=poa`);
        await p.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
        // the bus feed runs from 2019-04-15, the rail feed from 2019-03-01: the page opens on a
        // Monday of bus service, at the hour with the most departures (the buses of r5r's extract
        // run in the early afternoon), and says why
        assert.equal(await p.inputValue('#datetime'), '2019-04-15T13:00');
        const note = (await p.textContent('#coverage-note'))!;
        assert.match(note, /^Production period 1 Mar 2019 to 31 Dec 2019\. Showing Monday, 15 Apr 2019: the busiest Monday of the period/);
        assert.match(note, /At 13:00, the hour with the most departures that day/);
        // the streets span most of the map: it opens on them, not on the 63 km of the stops
        await p.waitForFunction(() => document.querySelectorAll('.leaflet-overlay-pane canvas').length > 0);
        const { widthShare, heightShare } = await paintedStreetsBox(p);
        assert.ok(widthShare > 0.6 && heightShare > 0.6, `streets span ${Math.round(widthShare * 100)}% × ${Math.round(heightShare * 100)}% of the map`);
        // OpenStreetMap credited beside the streets drawn from it, and the bus feed's publisher
        const credits = p.locator('.leaflet-control-attribution');
        assert.match((await credits.textContent())!, /© OpenStreetMap contributors/);
        assert.equal(await credits.locator('a[href="https://www.openstreetmap.org/copyright"]').count(), 1);
        assert.match((await credits.textContent())!, /Transit data: Empresa Publica de Transportes e Circulação/);
        await shot('1-first-view');
      },
      () => p,
    );

    await step(
      'poa stops at street zoom',
      async () => {
        assert.equal(await p.locator('path.stop-dot').count(), 0, 'no stop drawn at city zoom');
        // from the first view's zoom (12.75) to street zoom (15 and more)
        for (let k = 0; k < 3; k++) await zoomBy(p, 'in');
        await p.waitForFunction(() => document.querySelectorAll('path.stop-dot').length > 20, null, { timeout: 20_000 });
        // the streets drawn again at the new zoom, across the whole map in the city's middle
        const { widthShare, heightShare } = await paintedStreetsBox(p);
        assert.ok(widthShare > 0.9 && heightShare > 0.9, `streets span ${Math.round(widthShare * 100)}% × ${Math.round(heightShare * 100)}% of the map at street zoom`);
        await shot('2-stops-at-street-zoom');
        for (let k = 0; k < 3; k++) await zoomBy(p, 'out');
        await p.waitForFunction(() => document.querySelectorAll('path.stop-dot').length === 0, null, { timeout: 20_000 });
      },
      () => p,
    );

    await step(
      'poa search',
      async () => {
        // seven stop areas are named SENADOR SALGADO FILHO: each row says where it is and what stops there
        await p.fill('#place-search', 'senador salgado filho');
        await p.waitForFunction(() => {
          const details = [...document.querySelectorAll('#place-results .place-detail')].map((d: any) => d.textContent);
          return details.length >= 6 && details.every((d: string) => / · (lines? |no line)/.test(d));
        }, null, { timeout: 20_000 });
        const rows = await p.locator('#place-results li').allTextContents();
        const same = rows.filter((r) => r.startsWith('SENADOR SALGADO FILHO · stop area'));
        assert.ok(same.length >= 6, rows.join('\n'));
        assert.equal(new Set(same).size, same.length, `rows told apart:\n${same.join('\n')}`);
        for (const row of same) assert.match(row, /\d+(\.\d+)? k?m from the map's centre · lines? [\w, ]+$/);
        await shot('2b-search');
        await p.fill('#place-search', '');
      },
      () => p,
    );

    await step(
      'poa heat map',
      async () => {
        const box = (await p.locator('#map').boundingBox())!;
        await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await p.click('#draw');
        await p.waitForSelector('#heat-canvas', { timeout: 60_000 });
        assert.match((await p.textContent('#status'))!, /cells reached within 30 min\. Hover the map to read a cell\.$/);
        const url = (await p.getAttribute('#request-url', 'href'))!;
        assert.match(url, /heat_maps\?from=[-\d.]+;[-\d.]+&datetime=20190415T130000&max_duration=1800&/);
        // the bus stops reached: those of the bus mode inside reached cells, and the farthest of them
        const reach = await p.evaluate(async (heatUrl: string) => {
          const heat: any = await (await fetch(heatUrl)).json();
          const matrix = heat.heat_maps[0].heat_matrix;
          const centre = new URL(heatUrl).searchParams.get('from')!.split(';').map(Number);
          const base = heatUrl.slice(0, heatUrl.indexOf('/heat_maps'));
          // every bus stop, a page of 1,000 at a time
          const stops: any[] = [];
          for (let page = 0; ; page++) {
            const body: any = await (await fetch(`${base}/physical_modes/physical_mode:Bus/stop_points?count=1000&start_page=${page}&depth=0`)).json();
            stops.push(...(body.stop_points ?? []));
            if (!body.stop_points || body.stop_points.length < 1000) break;
          }
          let reached = 0;
          let farthestM = 0;
          for (const stop of stops) {
            const lon = Number(stop.coord.lon);
            const lat = Number(stop.coord.lat);
            const i = matrix.lines.findIndex((l: any) => l.cell_lon.min_lon <= lon && lon < l.cell_lon.max_lon);
            const j = matrix.line_headers.findIndex((h: any) => h.cell_lat.min_lat <= lat && lat < h.cell_lat.max_lat);
            if (i < 0 || j < 0 || matrix.lines[i].duration[j] === null) continue;
            reached++;
            const dx = (lon - centre[0]!) * 111226 * Math.cos((lat * Math.PI) / 180);
            const dy = (lat - centre[1]!) * 111226;
            farthestM = Math.max(farthestM, Math.hypot(dx, dy));
          }
          return { reached, farthestM: Math.round(farthestM), total: stops.length };
        }, url);
        assert.ok(reach.reached >= 50, `bus stops reached: ${JSON.stringify(reach)}`);
        assert.ok(reach.farthestM > WALK_30_MIN_M * 1.5, `the farthest bus stop reached lies ${reach.farthestM} m away: farther than walking goes`);
        await shot('3-heat-map');
      },
      () => p,
    );

    await step(
      'poa accessibility',
      async () => {
        // the coverage has a point set: the tab is there, its columns to choose from
        await p.waitForSelector('#access-tab:not([hidden])', { timeout: 20_000 });
        await p.click('#access-tab');
        const choices = await p.locator('#access-opportunities option').evaluateAll((options: any[]) => options.map((o) => o.value));
        assert.deepEqual(choices, ['hexgrid:population', 'hexgrid:schools', 'hexgrid:jobs', 'hexgrid:healthcare']);
        await p.selectOption('#access-opportunities', 'hexgrid:schools');
        await p.click('#access-compute');
        // every hexagon an origin, drawn as a circle
        await p.waitForFunction(() => document.querySelectorAll('path.access-point').length === 1227, null, { timeout: 60_000 });
        const url = (await p.getAttribute('#request-url', 'href'))!;
        assert.match(
          url,
          /\/accessibility\?origins=hexgrid&datetime=20190415T130000&first_section_mode\[\]=walking&last_section_mode\[\]=walking&data_freshness=base_schedule&opportunities\[\]=hexgrid:schools&cutoffs\[\]=1800&decay_function=step$/,
        );
        // the legend's range is the answer's, and the circles' colours follow it: the most, the darkest
        const answer = await p.evaluate(async (u: string) => ((await (await fetch(u)).json()) as any).accessibility_by_origin, url);
        const values: number[] = answer.measures[0].values.filter((v: number | null) => v !== null);
        assert.deepEqual(await p.locator('#access-legend .ticks span').allTextContents(), [Math.min(...values), Math.max(...values)].map((v) => v.toLocaleString('en')));
        const fills = await p.locator('path.access-point').evaluateAll((paths: any[]) => paths.map((e) => e.getAttribute('fill')));
        assert.ok(new Set(fills).size > 10, `${new Set(fills).size} colours`);
        assert.equal(fills[answer.measures[0].values.indexOf(Math.max(...values))], 'rgb(37,52,148)');
        await shot('3b-accessibility');
        // a click on the map: that place's own number, in a popup
        const box = (await p.locator('#map').boundingBox())!;
        await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await p.waitForSelector('.access-popup .access-value', { timeout: 30_000 });
        const single = (await p.getAttribute('#request-url', 'href'))!;
        assert.match(single, /\/accessibility\?from=[-\d.]+;[-\d.]+&datetime=20190415T130000&/);
        const value = await p.evaluate(async (u: string) => ((await (await fetch(u)).json()) as any).accessibility[0].value, single);
        assert.equal(await p.textContent('.access-popup .access-value'), value.toLocaleString('en'));
        await shot('3c-accessibility-of-a-place');
      },
      () => p,
    );

    await step(
      'poa trip',
      async () => {
        await p.click('.tab[data-tab="trips"]');
        await p.waitForSelector('#lines li', { timeout: 20_000 });
        await p.locator('#lines li', { hasText: '2441' }).first().click();
        await p.waitForSelector('#trips li.trip', { timeout: 20_000 });
        // two directions, each headed by its last stop, each in departure order
        const directions = await p.locator('#trips li.direction').allTextContents();
        assert.deepEqual(directions, ['→ SANTA TEREZA DORMENIO (6)', '→ URUGUAI (5)']);
        const times = (await p.locator('#trips li.trip').allTextContents()).map((t) => t.slice(0, 5));
        assert.deepEqual(times.slice(0, 6), [...times.slice(0, 6)].sort());
        assert.deepEqual(times.slice(6), [...times.slice(6)].sort());
        await p.locator('#trips li.trip').first().click();
        await p.waitForSelector('#stop-times:not([hidden]) tbody tr', { timeout: 20_000 });
        // no realtime source: a note, no column
        assert.equal(await p.isVisible('#realtime-note'), true);
        assert.equal(await p.locator('#stop-times tbody tr td:nth-child(4)').count(), 0);
        // the trip on the map: a line through its 45 stops
        const stops = await p.locator('#stop-times tbody tr').count();
        assert.equal(await p.locator('path.trip-line').count(), 1);
        assert.equal(await p.locator('path.trip-stop').count(), stops);
        const line = (await p.locator('path.trip-line').boundingBox())!;
        assert.ok(line.width > 100 && line.height > 100, `the trip's line spans ${line.width} × ${line.height} px`);
        await shot('4-trip');
        // a day without the line's service: the page says it in words, not the engine's
        await p.fill('#trips-day', '2019-03-01');
        await p.locator('#lines li', { hasText: '2441' }).first().click();
        await p.waitForFunction(() => document.getElementById('status').classList.contains('error'), null, { timeout: 20_000 });
        const said = (await p.textContent('#status'))!;
        assert.doesNotMatch(said, /ptref|Filters/, said);
        assert.equal(await p.locator('#trips li').count(), 0);
      },
      () => p,
    );

    await step(
      'poa empty map',
      async () => {
        await p.click('.tab[data-tab="maps"]');
        // zoomed out from the trip, the map's bottom-left corner lies in the lake west of the
        // extract, kilometres from any street
        await zoomBy(p, 'out');
        await zoomBy(p, 'out');
        const box = (await p.locator('#map').boundingBox())!;
        await p.mouse.click(box.x + 60, box.y + box.height - 60);
        const [lon, lat] = (await p.textContent('#place-chosen'))!.match(/\((-?[\d.]+);(-?[\d.]+)\)/)!.slice(1).map(Number);
        assert.ok(lon! < -51.27 && lat! > -30.2, `the corner clicked: ${lon};${lat}, west of the extract (-51.266)`);
        await p.click('#draw');
        await p.waitForFunction(() => !/Computing/.test(document.getElementById('status').textContent), null, { timeout: 60_000 });
        const status = (await p.textContent('#status'))!;
        assert.doesNotMatch(status, /Hover the map/);
        assert.equal(await p.isVisible('#legend'), false);
        assert.equal(await p.getAttribute('#status', 'class'), 'error', status);
        await shot('5-empty-map');
      },
      () => p,
    );
    assert.deepEqual(errors, []);
  } finally {
    await p.close();
    poa.process.kill();
  }
});
