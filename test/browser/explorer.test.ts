/**
 * The explorer in a real browser (Debian's Chromium, driven by playwright-core) against a real
 * `navette serve` of the demo town: the page loads with no outside request, a point clicked on the
 * map gives a heat map painted on the canvas and a readout of the cell under the pointer, the
 * isochrones are drawn as shapes, and the trips browser goes from a line to a trip's stop times.
 * On failure a screenshot is saved under the system's temporary folder (its path is printed).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/serve.js';

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
async function step(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-explorer-')), `${name.replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => {});
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

  assert.deepEqual(outside, [], 'the page asks nothing of other hosts');
  assert.deepEqual(pageErrors, []);
});
