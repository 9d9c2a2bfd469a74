// The explorer: Navette's own API drawn on a map. Every request it makes is an ordinary API call,
// shown under the form so that people learn the API. Leaflet (window.L) is loaded before this module.
import { accessibilityPanel } from './accessibility.js';
import { rampAt } from './ramp.js';
import { scenarioControls } from './scenarios.js';

const L = window.L;
const $ = (id) => document.getElementById(id);

/** The heat map's colours, [position in [0, 1], [r, g, b]], as the PNG format draws them (the server's settings). */
let RAMP = [];
/** A difference map's colours, as the PNG format draws them: the ramp over [−1, 1] of max_duration, and the lost and gained access markers. */
let DIVERGING = { ramp: [], lost: [0, 0, 0], gained: [0, 0, 0] };
const ISOCHRONE_STEP_SEC = 600;

/** Stops are drawn from this zoom on (street level: a few hundred of them on screen at most). */
const STOPS_MIN_ZOOM = 15;
/** The most stops asked for around the map's centre, and the widest radius, metres. */
const STOPS_MAX_COUNT = 300;
const STOPS_MAX_RADIUS_M = 2000;

const state = {
  maxBoundaries: 1,
  osmAttribution: '',
  coverages: new Map(),
  region: null,
  coverage: null,
  view: null,
  place: null,
  heat: null,
  heatLayer: null,
  isochroneLayer: null,
  marker: null,
  streetsLayer: null,
  basemapLayer: null,
  stopsLayer: null,
  tripLayer: null,
  credits: [],
  /** the scenario the page's address asks (`?scenario=NAME`), picked once the first coverage's scenarios are known */
  wantedScenario: null,
};

// quarter zoom steps: a coverage's box fills the map rather than a half of it
const map = L.map('map', { preferCanvas: true, zoomControl: true, zoomSnap: 0.25 }).setView([48.85, 2.35], 12);
// the basemap under everything else (tiles are at 200, vectors at 400)
map.createPane('basemap').style.zIndex = '250';
const basemapRenderer = L.canvas({ padding: 0.2, pane: 'basemap' });
// the chosen trip and the stops at street zoom as SVG: a few hundred elements at most, each found in the page
const tripRenderer = L.svg({ padding: 0.2 });

function setStatus(text, isError = false, warnings = []) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
  $('warnings').replaceChildren(
    ...warnings.map((w) => {
      const li = document.createElement('li');
      li.textContent = w.message || w.id;
      return li;
    }),
  );
}

/**
 * Navette's and Navitia's terse engine messages in plain words, for servers that send no
 * `error.details` (the server's own sentence, in the request's terms, is shown when there is one).
 */
const PLAIN_MESSAGES = [
  [/^ptref : Filters: Unable to find object$/, 'Nothing found: the object is unknown here, or none matches on that day.'],
  [/^The region (.*) doesn't exists$/, 'There is no coverage named $1.'],
  [/^The service is loading data$/, 'The coverage is still loading its data: try again in a moment.'],
  [/^The region (.*) is dead$/, 'The coverage $1 could not be loaded: its data is unavailable.'],
  [/^date is not in data production period$/i, "That date is outside the coverage's production period."],
  [/^no origin point$/i, 'The place is not on the street network nor near a stop.'],
];

function plainMessage(message) {
  for (const [pattern, words] of PLAIN_MESSAGES) if (pattern.test(message)) return message.replace(pattern, words);
  return message;
}

/** The sentence a person reads for an API error body. */
function errorText(body, status) {
  if (body?.error?.details) return body.error.details;
  const message = body?.error?.message ?? body?.message ?? `HTTP ${status}`;
  return plainMessage(message);
}

/** GET an API path; the URL is shown under the form; Navitia's error bodies become readable messages. */
async function api(path, show = true) {
  const url = new URL(path, window.location.origin);
  if (show) {
    $('request-url').textContent = url.pathname + url.search;
    $('request-url').href = url.href;
  }
  const res = await fetch(url);
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || body.error) throw new Error(errorText(body, res.status));
  return body;
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const coverageBase = () => `/v1/coverage/${encodeURIComponent(state.region)}`;

// ---- coverages and the background --------------------------------------------------------------

async function loadCoverages(coveragesAnswer) {
  const { regions } = await coveragesAnswer;
  const select = $('coverage');
  select.replaceChildren(...regions.map((r) => new Option(`${r.id}${r.name ? ` (${r.name})` : ''}`, r.id)));
  state.coverages = new Map(regions.map((r) => [r.id, r]));
  const address = new URLSearchParams(window.location.search);
  const wanted = address.get('coverage');
  if (wanted && state.coverages.has(wanted)) select.value = wanted;
  state.wantedScenario = address.get('scenario');
  await chooseCoverage(select.value);
}

async function chooseCoverage(region) {
  state.region = region;
  state.coverage = state.coverages.get(region);
  clearPlace();
  clearDrawings();
  clearTrip();
  access.clear();
  for (const key of ['streetsLayer', 'basemapLayer', 'stopsLayer']) {
    if (state[key]) state[key].remove();
    state[key] = null;
  }
  $('draw').disabled = true;
  setStatus('Loading the coverage…');
  // the streets asked for at once, beside the view: they are the first paint's long pole
  const streetsAnswer = api(`${coverageBase()}/street_network`, false);
  streetsAnswer.catch(() => {}); // awaited below; a failure is said there
  try {
    state.view = await api(`/explorer/coverage/${encodeURIComponent(region)}/view.json`, false);
  } catch (e) {
    state.view = null;
    setStatus(`Coverage: ${e.message}`, true);
  }
  // where the streets and the stops overlap, else the coverage's shape
  const box = state.view?.view_box;
  const bounds = box ? L.latLngBounds([box[1], box[0]], [box[3], box[2]]) : wktBounds(state.coverage.shape);
  if (bounds) map.fitBounds(bounds);
  setDefaultDatetime();
  showCoverageNote();
  setCredits();
  $('realtime-note').hidden = Boolean(state.view?.realtime);
  try {
    const streets = await streetsAnswer;
    if (region !== state.region) return;
    state.streetsLayer = new StreetLines(streets, STREET_STYLE, { padding: 0.2 }).addTo(map);
    const streetBounds = state.streetsLayer.getBounds();
    if (!bounds && streetBounds) map.fitBounds(streetBounds);
    // the first paint that shows the coverage (bench/explorer.ts reads it)
    performance.mark('streets-drawn');
    setStatus('Search a stop or click the map to choose a place.');
  } catch (e) {
    setStatus(`Streets: ${e.message}`, true);
  }
  // after the streets: the basemap's first making (a worker reading the extract) does not delay them
  loadBasemap(region);
  drawStops();
  // the accessibility tab, for a coverage with point sets only
  access.load().then((hasSets) => {
    if (region === state.region && !hasSets && !$('access-panel').hidden) showTab('maps');
  });
  // the coverage's scenarios: the timetable picker, for a coverage with some only
  scenarios.load(region, state.wantedScenario);
  state.wantedScenario = null;
  if ($('trips-panel').hidden === false) await loadLines();
}

/** Roads (open to cars) in grey, paths (walkers and cyclists only) lighter and dashed. */
const STREET_STYLE = {
  road: { color: '#8a8f96', weight: 1.2, opacity: 0.8, dash: [] },
  path: { color: '#b5b9be', weight: 0.8, opacity: 0.8, dash: [2, 3] },
};

/**
 * The street network drawn straight on a Leaflet canvas renderer from its coordinates, projected
 * once: a city's 27,000 streets take a few milliseconds a redraw, where as Leaflet polylines they
 * took a few hundred, the first paint's longest step. The renderer places, clears and zooms its
 * canvas as it does for its paths, and draws them in `_draw` (Leaflet 1.9's, pinned): the lines are
 * drawn there, after each move and zoom.
 */
const StreetLines = L.Canvas.extend({
  initialize(collection, styles, options) {
    L.Canvas.prototype.initialize.call(this, options);
    this._styles = styles;
    this._kinds = collection.features.map((f) => ({ kind: f.properties.kind, ...projectedLines(f.geometry.coordinates) }));
  },

  // the renderer draws its canvas (cleared) when added and after each update: the lines first
  _draw() {
    this._drawLines();
    L.Canvas.prototype._draw.call(this);
  },

  /** The box of every street, or null when there is none. */
  getBounds() {
    const boxes = this._kinds.filter((k) => k.bounds);
    return boxes.length === 0 ? null : boxes.reduce((all, k) => all.extend(k.bounds), L.latLngBounds(boxes[0].bounds.getSouthWest(), boxes[0].bounds.getNorthEast()));
  },

  _drawLines() {
    const map = this._map;
    const ctx = this._ctx;
    // unit coordinates to the renderer's layer pixels, hoisted for the whole draw
    const scale = map.options.crs.scale(map.getZoom());
    const origin = map.getPixelOrigin();
    for (const { kind, xy, starts } of this._kinds) {
      const style = this._styles[kind];
      if (!style) continue;
      ctx.beginPath();
      for (let l = 0; l + 1 < starts.length; l++) {
        ctx.moveTo(xy[2 * starts[l]] * scale - origin.x, xy[2 * starts[l] + 1] * scale - origin.y);
        for (let k = starts[l] + 1; k < starts[l + 1]; k++) ctx.lineTo(xy[2 * k] * scale - origin.x, xy[2 * k + 1] * scale - origin.y);
      }
      ctx.strokeStyle = style.color;
      ctx.lineWidth = style.weight;
      ctx.globalAlpha = style.opacity;
      ctx.setLineDash(style.dash);
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  },
});

/**
 * A MultiLineString's lines as the map's projection at scale 1 (multiply by the zoom's scale for
 * pixels), one flat array:  xy[2k], xy[2k + 1] point k;  points of line l: starts[l] … starts[l + 1].
 */
function projectedLines(lines) {
  const crs = map.options.crs;
  const unit = crs.scale(0);
  let count = 0;
  for (const line of lines) count += line.length;
  const xy = new Float64Array(count * 2);
  const starts = new Uint32Array(lines.length + 1);
  let k = 0;
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  lines.forEach((line, l) => {
    starts[l] = k;
    for (const [lon, lat] of line) {
      const p = crs.latLngToPoint(L.latLng(lat, lon), 0);
      xy[2 * k] = p.x / unit;
      xy[2 * k + 1] = p.y / unit;
      k++;
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  });
  starts[lines.length] = k;
  return { xy, starts, bounds: k > 0 ? L.latLngBounds([south, west], [north, east]) : null };
}

/** The credits of what is on screen: OpenStreetMap for the streets and basemap, each feed's publisher. */
function setCredits() {
  for (const credit of state.credits) map.attributionControl.removeAttribution(credit);
  const credits = [];
  if (state.view?.streets_from_osm) credits.push(state.osmAttribution);
  for (const p of state.view?.feed_publishers ?? []) {
    const name = escapeHtml(p.name);
    credits.push(`Transit data: ${p.url ? `<a href="${escapeHtml(p.url)}">${name}</a>` : name}${p.license ? ` (${escapeHtml(p.license)})` : ''}`);
  }
  for (const credit of credits) map.attributionControl.addAttribution(credit);
  state.credits = credits;
}

/** The production period and why the page opens on its day. */
function showCoverageNote() {
  const view = state.view;
  const note = $('coverage-note');
  if (!view || !view.production_period) {
    note.textContent = view ? 'No trip runs on any day of this coverage.' : '';
    return;
  }
  const { start, end } = view.production_period;
  const chosen = view.representative_day;
  const why =
    chosen.reason === 'today'
      ? `today, inside the period (${chosen.trips.toLocaleString('en')} trips)`
      : `the busiest ${chosen.busiest_weekday} of the period (${chosen.trips.toLocaleString('en')} trips), since today (${longDate(view.today)}) is outside it`;
  const at = chosen.hour === null ? '' : ` At ${String(chosen.hour).padStart(2, '0')}:00, the hour with the most departures that day (${chosen.departures.toLocaleString('en')}).`;
  note.textContent = `Production period ${longDate(start)} to ${longDate(end)}. Showing ${longDate(chosen.date, true)}: ${why}.${at}`;
}

/** 20190415 as "15 Apr 2019" (with the weekday: "Monday 15 Apr 2019"). */
function longDate(yyyymmdd, withWeekday = false) {
  const date = new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8))));
  return date.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', ...(withWeekday ? { weekday: 'long' } : {}) });
}

// ---- the basemap: water, parks, railways and place names from the coverage's own extract -------

const BASEMAP_STYLE = {
  water: { stroke: false, fillColor: '#aad3df', fillOpacity: 1 },
  park: { stroke: false, fillColor: '#cdebb0', fillOpacity: 0.9 },
  rail: { color: '#999', weight: 1.5, dashArray: '6 3' },
};

async function loadBasemap(region) {
  try {
    const basemap = await api(`/explorer/coverage/${encodeURIComponent(region)}/basemap.geojson`, false);
    if (region !== state.region) return;
    state.basemapLayer = L.geoJSON(basemap, {
      renderer: basemapRenderer,
      interactive: false,
      pane: 'basemap',
      style: (f) => BASEMAP_STYLE[f.properties.kind] ?? {},
      pointToLayer: (f, latlng) =>
        L.marker(latlng, { pane: 'basemap', interactive: false, keyboard: false, icon: L.divIcon({ className: `place-label place-${f.properties.place}`, html: `<span>${escapeHtml(f.properties.name)}</span>`, iconSize: null }) }),
    }).addTo(map);
  } catch {
    // no basemap: the streets alone are the background, as without an extract
  }
}

// ---- stops at street zoom, from places_nearby around the map's centre -------------------------

let stopsSerial = 0;
async function drawStops() {
  const serial = ++stopsSerial;
  if (!state.region || map.getZoom() < STOPS_MIN_ZOOM) {
    if (state.stopsLayer) state.stopsLayer.remove();
    state.stopsLayer = null;
    return;
  }
  const centre = map.getCenter();
  const radius = Math.min(STOPS_MAX_RADIUS_M, Math.ceil(centre.distanceTo(map.getBounds().getNorthEast())));
  try {
    const { places_nearby: places = [] } = await api(
      `${coverageBase()}/coord/${centre.lng.toFixed(6)};${centre.lat.toFixed(6)}/places_nearby?type[]=stop_point&distance=${radius}&count=${STOPS_MAX_COUNT}&depth=0`,
      false,
    );
    if (serial !== stopsSerial) return;
    if (state.stopsLayer) state.stopsLayer.remove();
    state.stopsLayer = L.layerGroup(
      places.map((p) =>
        L.circleMarker([Number(p.stop_point.coord.lat), Number(p.stop_point.coord.lon)], {
          renderer: tripRenderer,
          className: 'stop-dot',
          radius: 3.5,
          color: '#1f3b57',
          weight: 1,
          fillColor: '#fff',
          fillOpacity: 1,
          bubblingMouseEvents: true,
        }).bindTooltip(
          p.name,
        ),
      ),
    ).addTo(map);
  } catch {
    // stops are a help for reading the map, not a result: nothing to say when they fail
  }
}
map.on('moveend', () => drawStops());

/** The box of a coverage's WKT shape (MULTIPOLYGON of lon lat pairs), or null. */
function wktBounds(wkt) {
  const numbers = (wkt ?? '').match(/-?\d+(\.\d+)?\s+-?\d+(\.\d+)?/g);
  if (!numbers) return null;
  const points = numbers.map((pair) => pair.trim().split(/\s+/).map(Number));
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  return L.latLngBounds([Math.min(...lats), Math.min(...lons)], [Math.max(...lats), Math.max(...lons)]);
}

/** The coverage's representative day at its busiest hour (the server's choice: see the coverage note), else today at 08:00. */
function setDefaultDatetime() {
  const today = new Date();
  const ymd = `${today.getFullYear()}${String(today.getMonth() + 1).padStart(2, '0')}${String(today.getDate()).padStart(2, '0')}`;
  const chosen = state.view?.representative_day;
  const day = chosen?.date ?? ymd;
  const hour = chosen?.hour ?? 8;
  const iso = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
  $('datetime').value = `${iso}T${String(hour).padStart(2, '0')}:00`;
  $('trips-day').value = iso;
}

// ---- the place: a stop found by name, or a point of the map ------------------------------------

function clearPlace() {
  state.place = null;
  $('place-chosen').textContent = 'No place chosen.';
  $('place-search').value = '';
  $('place-results').replaceChildren();
  if (state.marker) state.marker.remove();
  state.marker = null;
}

function choosePlace(place) {
  state.place = place;
  $('place-chosen').textContent = `${place.name} (${place.id})`;
  $('place-results').replaceChildren();
  if (state.marker) state.marker.remove();
  state.marker = L.circleMarker([place.lat, place.lon], { radius: 7, color: '#1f3b57', weight: 3, fillColor: '#fff', fillOpacity: 1 }).addTo(map);
  $('draw').disabled = false;
}

let searchSerial = 0;
async function searchPlaces(text) {
  const serial = ++searchSerial;
  if (text.trim().length < 2) {
    $('place-results').replaceChildren();
    return;
  }
  try {
    const { places = [] } = await api(`${coverageBase()}/places?q=${encodeURIComponent(text)}&type[]=stop_area&type[]=stop_point&count=10`);
    if (serial !== searchSerial) return;
    const centre = map.getCenter();
    $('place-results').replaceChildren(
      ...places.map((p) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        const object = p[p.embedded_type];
        const coord = object?.coord;
        const lat = Number(coord.lat);
        const lon = Number(coord.lon);
        const title = document.createElement('span');
        title.className = 'place-name';
        title.textContent = `${p.name} · ${p.embedded_type.replace('_', ' ')}${object.platform_code ? ` · platform ${object.platform_code}` : ''}`;
        // what tells two places of one name apart: where they are, and the lines that stop there
        const detail = document.createElement('span');
        detail.className = 'place-detail';
        detail.textContent = `${formatDistance(centre.distanceTo([lat, lon]))} from the map's centre`;
        li.append(title, detail);
        linesAt(p.embedded_type, p.id).then((codes) => {
          if (codes) detail.textContent += ` · ${codes}`;
        });
        li.addEventListener('click', () => choosePlace({ id: p.id, name: p.name, lon, lat }));
        return li;
      }),
    );
  } catch (e) {
    setStatus(`Search: ${e.message}`, true);
  }
}

/** The codes of the lines that stop at a stop area or point ("lines 2441, 2442"), kept per place. */
const linesCache = new Map();
function linesAt(type, id) {
  const key = `${state.region}|${type}|${id}`;
  if (!linesCache.has(key)) {
    linesCache.set(
      key,
      api(`${coverageBase()}/${type}s/${encodeURIComponent(id)}/lines?depth=0&count=50`, false)
        .then(({ lines = [] }) => (lines.length === 0 ? 'no line' : `line${lines.length > 1 ? 's' : ''} ${lines.map((l) => l.code || l.name || l.id).join(', ')}`))
        .catch(() => ''),
    );
  }
  return linesCache.get(key);
}

/** Metres to 10 m up to 10 km (places of one name often lie a street apart), then to 100 m. */
const formatDistance = (metres) => (metres < 1000 ? `${Math.round(metres / 10) * 10} m` : `${(metres / 1000).toFixed(metres < 10_000 ? 2 : 1)} km`);

map.on('click', (event) => {
  if (!$('access-panel').hidden) return access.clickAt(event.latlng);
  if ($('maps-panel').hidden) return;
  const lon = event.latlng.lng.toFixed(6);
  const lat = event.latlng.lat.toFixed(6);
  choosePlace({ id: `${lon};${lat}`, name: `point ${lat}, ${lon}`, lon: Number(lon), lat: Number(lat) });
});

// ---- heat maps and isochrones --------------------------------------------------------------------

function clearDrawings() {
  for (const key of ['heatLayer', 'isochroneLayer']) {
    if (state[key]) state[key].remove();
    state[key] = null;
  }
  state.heat = null;
  $('legend').hidden = true;
  $('cell-readout').textContent = '';
}

/** The journeys' date and time (shared by heat maps and accessibility) as the API writes it. */
const datetimeParam = () => $('datetime').value.replace(/[-:]/g, '') + '00';

/**
 * The journeys' modes, data freshness, scenario and wheelchair (shared by heat maps and
 * accessibility); with `compare` (where the API answers a difference), "compare with the base".
 */
function modeParams(q, compare = false) {
  const mode = $('mode').value;
  q.append('first_section_mode[]', mode);
  q.append('last_section_mode[]', mode);
  q.set('data_freshness', $('freshness').value);
  scenarios.params(q, { compare });
  if ($('wheelchair').checked) q.set('wheelchair', 'true');
}

function mapQuery() {
  const direction = document.querySelector('input[name="direction"]:checked').value;
  const maxDuration = Math.round(Number($('max-duration').value) * 60);
  const q = new URLSearchParams();
  q.set(direction, state.place.id);
  q.set('datetime', datetimeParam());
  q.set('max_duration', String(maxDuration));
  // a difference map (heat maps only: the bands of a difference have no meaning): a scenario
  // against the base, or a realtime map against another level (never both: a scenario holds the
  // freshness at the base schedule)
  modeParams(q, $('view').value === 'heat_maps');
  const compare = comparedLevel();
  if (compare) q.set('compare_data_freshness', compare);
  q.set('resolution', $('resolution').value);
  // a departure window: one departure a minute, the cells' travel times summarised by the percentile chosen
  const windowSec = Number($('window').value);
  if (windowSec > 0) {
    q.set('departure_window', String(windowSec));
    q.append('percentiles[]', $('percentile').value);
  }
  return { q, maxDuration };
}

/** The level a realtime heat map is compared with, or '' (none; not offered for isochrones nor other levels). */
function comparedLevel() {
  return $('freshness').value === 'realtime' && $('view').value === 'heat_maps' ? $('compare').value : '';
}

/** The compare select is offered with a realtime heat map only; a scenario's "compare with the base" with heat maps, not isochrones. */
function showCompare() {
  $('compare-label').hidden = !($('freshness').value === 'realtime' && $('view').value === 'heat_maps');
  const isochrones = !$('maps-panel').hidden && $('view').value === 'isochrones';
  $('scenario-compare').disabled = isochrones;
  $('scenario-compare-label').title = isochrones ? 'isochrones take no comparison: draw a heat map' : '';
}

/**
 * A scenario is a plan over the base schedule (the server refuses it with another freshness):
 * while one is picked the freshness is held there, so no request mixes the two comparisons.
 */
function holdFreshness() {
  const scenario = scenarios.picked();
  if (scenario) $('freshness').value = 'base_schedule';
  $('freshness').disabled = Boolean(scenario);
  $('freshness').title = scenario ? `${scenario} is a plan over the base schedule` : '';
  showCompare();
}

/** What a drawn map stands for, for the status line: one departure, or a percentile over a window's. */
function departuresWords() {
  const windowSec = Number($('window').value);
  return windowSec > 0 ? ` (p${$('percentile').value} of the departures every minute for ${windowSec / 60} min)` : '';
}

async function draw(event) {
  event.preventDefault();
  if (!state.place) return;
  const { q, maxDuration } = mapQuery();
  const view = $('view').value;
  if (view === 'isochrones') {
    const step = Math.max(ISOCHRONE_STEP_SEC, Math.ceil(maxDuration / state.maxBoundaries / ISOCHRONE_STEP_SEC) * ISOCHRONE_STEP_SEC);
    for (let b = step; b < maxDuration; b += step) q.append('boundary_duration[]', String(b));
  }
  // the API's own parameter order reads better with [] unescaped
  const path = `${coverageBase()}/${view}?${q.toString().replace(/%5B%5D/g, '[]').replace(/%3B/g, ';')}`;
  setStatus('Computing…');
  $('draw').disabled = true;
  try {
    const body = await api(path);
    clearDrawings();
    const warnings = body.warnings ?? [];
    const minutes = maxDuration / 60;
    if (view === 'heat_maps' && body.heat_maps[0].difference) {
      const { difference, heat_matrix: matrix } = body.heat_maps[0];
      drawHeatMap(matrix, maxDuration, difference);
      if (difference.compare_scenario !== undefined) {
        // a plan against today's timetable: what it brings within reach first
        const changes = `${difference.gained_cells} cells gained, ${difference.lost_cells} lost, ${difference.faster_cells} faster, ${difference.slower_cells} slower`;
        setStatus(`${difference.scenario} against the ${scenarioWords(difference.compare_scenario)}${departuresWords()}: ${changes}. Hover the map to read a cell.`, false, warnings);
      } else {
        const words = LEVEL_WORDS[difference.compare_data_freshness];
        const changes = `${difference.slower_cells} cells slower, ${difference.faster_cells} faster, ${difference.lost_cells} lost, ${difference.gained_cells} gained`;
        setStatus(`Realtime against the ${words}${departuresWords()}: ${changes}. Hover the map to read a cell.`, false, warnings);
      }
    } else if (view === 'heat_maps') {
      const reached = drawHeatMap(body.heat_maps[0].heat_matrix, maxDuration);
      if (reached > 0) setStatus(`${reached.toLocaleString('en')} cells reached within ${minutes} min${departuresWords()}. Hover the map to read a cell.`, false, warnings);
      else {
        // no legend over an empty map: there is nothing it would explain
        $('legend').hidden = true;
        setStatus(`Nothing reached within ${minutes} min from this place.`, true, warnings);
      }
    } else {
      drawIsochrones(body.isochrones, maxDuration);
      const drawn = body.isochrones.filter((iso) => iso.geojson?.coordinates?.length > 0).length;
      setStatus(drawn > 0 ? `${body.isochrones.length} bands${departuresWords()}.` : `Nothing reached within ${minutes} min from this place.`, drawn === 0, warnings);
    }
  } catch (e) {
    setStatus(e.message, true);
  } finally {
    $('draw').disabled = false;
  }
}

const rampColour = (fraction) => rampAt(RAMP, fraction);

const LEVEL_WORDS = { base_schedule: 'base schedule', adapted_schedule: 'adapted schedule', realtime: 'realtime' };
/** A scenario compared with, in words: `base` is today's timetable. */
const scenarioWords = (name) => (name === 'base' ? 'base schedule' : `scenario ${name}`);

/**
 * A difference's colour, as the PNG format draws it: the markers of lost (+max_duration) and gained
 * (−max_duration) access in their own darker colours, else the diverging ramp at difference / max.
 */
function divergingColour(difference, maxDuration) {
  if (difference >= maxDuration) return DIVERGING.lost;
  if (difference <= -maxDuration) return DIVERGING.gained;
  return rampAt(DIVERGING.ramp, difference / maxDuration);
}

/**
 * The heat matrix painted on a canvas, one pixel a cell, laid on the map over the grid's box; the
 * count of cells with a value. A difference map (`difference`: its answer's object) on the diverging ramp.
 */
function drawHeatMap(matrix, maxDuration, difference = null) {
  let reached = 0;
  const columns = matrix.lines;
  const rows = matrix.line_headers;
  const canvas = document.createElement('canvas');
  canvas.id = 'heat-canvas';
  canvas.width = columns.length;
  canvas.height = rows.length;
  const context = canvas.getContext('2d');
  const image = context.createImageData(canvas.width, canvas.height);
  columns.forEach((column, i) => {
    column.duration.forEach((seconds, j) => {
      if (seconds === null) return;
      reached++;
      const [r, g, b] = difference ? divergingColour(seconds, maxDuration) : rampColour(seconds / maxDuration);
      const at = ((rows.length - 1 - j) * columns.length + i) * 4; // row 0 of the canvas is the north
      image.data.set([r, g, b, 255], at);
    });
  });
  context.putImageData(image, 0, 0);
  const south = rows[0].cell_lat.min_lat;
  const north = rows[rows.length - 1].cell_lat.max_lat;
  const west = columns[0].cell_lon.min_lon;
  const east = columns[columns.length - 1].cell_lon.max_lon;
  // Leaflet's SVG overlay positions any element over a box; a canvas is one
  state.heatLayer = L.svgOverlay(canvas, [[south, west], [north, east]], { opacity: 0.7, className: 'heat-layer', interactive: false }).addTo(map);
  // an empty map has no cell to read: the readout stays silent over it
  state.heat = reached > 0 ? { matrix, south, north, west, east, maxDuration, difference: difference && differenceSides(difference) } : null;
  if (difference) showDivergingLegend(maxDuration);
  else showRampLegend(maxDuration);
  return reached;
}

function showDivergingLegend(maxDuration) {
  const minutes = maxDuration / 60;
  const stops = DIVERGING.ramp.map(([t, c]) => `rgb(${c.join(',')}) ${((t + 1) / 2) * 100}%`).join(', ');
  const swatch = (c) => `<span class="swatch" style="background: rgb(${c.join(',')})"></span>`;
  $('legend').innerHTML =
    `<div class="ramp" style="background: linear-gradient(to right, ${stops})"></div>` +
    `<div class="ticks">${[-1, -0.5, 0, 0.5, 1].map((f) => `<span>${f > 0 ? '+' : ''}${Math.round(f * minutes)}</span>`).join('')}</div>` +
    '<div>minutes: blue faster, red slower than the schedule compared</div>' +
    `<div>${swatch(DIVERGING.gained)} access gained ${swatch(DIVERGING.lost)} access lost; no colour: reached by neither</div>`;
  $('legend').hidden = false;
}

/** A difference's two sides in words: what the map is (realtime, a scenario) and what it is compared with. */
function differenceSides(difference) {
  if (difference.compare_scenario !== undefined) return { own: `with ${difference.scenario}`, other: `on the ${scenarioWords(difference.compare_scenario)}` };
  return { own: 'at realtime', other: 'on the schedule compared' };
}

/** A cell of a difference map in words. */
function differenceWords(seconds, maxDuration, sides) {
  if (seconds >= maxDuration) return `access lost: reached only ${sides.other}`;
  if (seconds <= -maxDuration) return `access gained: reached only ${sides.own}`;
  if (seconds === 0) return 'no change';
  return `${seconds > 0 ? '+' : '−'}${Math.round(Math.abs(seconds) / 60)} min (${seconds > 0 ? '+' : ''}${seconds} s) ${seconds > 0 ? 'slower' : 'faster'}`;
}

function showRampLegend(maxDuration) {
  const minutes = maxDuration / 60;
  const stops = RAMP.map(([t, c]) => `rgb(${c.join(',')}) ${t * 100}%`).join(', ');
  $('legend').innerHTML =
    `<div class="ramp" style="background: linear-gradient(to right, ${stops})"></div>` +
    `<div class="ticks">${[0, 0.25, 0.5, 0.75, 1].map((f) => `<span>${Math.round(f * minutes)}</span>`).join('')}</div><div>minutes; no colour: not reached</div>`;
  $('legend').hidden = false;
}

function drawIsochrones(isochrones, maxDuration) {
  const features = isochrones.map((iso) => ({ type: 'Feature', properties: { min: iso.min_duration, max: iso.max_duration }, geometry: iso.geojson }));
  state.isochroneLayer = L.geoJSON(features, {
    style: (f) => {
      const [r, g, b] = rampColour(f.properties.max / maxDuration);
      return { color: `rgb(${r},${g},${b})`, weight: 1, fillOpacity: 0.45 };
    },
  }).addTo(map);
  $('legend').innerHTML =
    '<div class="bands">' +
    isochrones
      .map((iso) => `<div><span style="background: rgb(${rampColour(iso.max_duration / maxDuration).join(',')})"></span>${iso.min_duration / 60}–${iso.max_duration / 60} min</div>`)
      .join('') +
    '</div>';
  $('legend').hidden = false;
}

/** The minutes of the heat-map cell under the pointer. */
map.on('mousemove', (event) => {
  const heat = state.heat;
  if (!heat) return;
  const { lat, lng } = event.latlng;
  const columns = heat.matrix.lines;
  const rows = heat.matrix.line_headers;
  const i = Math.floor(((lng - heat.west) / (heat.east - heat.west)) * columns.length);
  const j = Math.floor(((lat - heat.south) / (heat.north - heat.south)) * rows.length);
  if (i < 0 || j < 0 || i >= columns.length || j >= rows.length) {
    $('cell-readout').textContent = '';
    return;
  }
  const seconds = columns[i].duration[j];
  if (seconds === null) $('cell-readout').textContent = heat.difference ? 'reached by neither' : 'not reached';
  else $('cell-readout').textContent = heat.difference ? differenceWords(seconds, heat.maxDuration, heat.difference) : `${Math.round(seconds / 60)} min (${seconds} s)`;
});

/** The coverage's scenarios (scenarios.js): the timetable picker, "compare with the base", the plan's lines on the map. */
const scenarios = scenarioControls({ map, api, coverageBase, onChange: holdFreshness });

/** The accessibility panel (accessibility.js), on the page's map, requests and journey settings. */
const access = accessibilityPanel({
  map,
  api,
  coverageBase,
  journeyParams: (q, { compare = false } = {}) => {
    q.set('datetime', datetimeParam());
    modeParams(q, compare);
  },
  setStatus,
});

// ---- trips: lines, their trips on a day, one trip's stop times -----------------------------------

async function loadLines() {
  $('lines').replaceChildren();
  $('trips').replaceChildren();
  $('stop-times').tBodies[0].replaceChildren();
  $('stop-times').hidden = true;
  try {
    const { lines = [] } = await api(`${coverageBase()}/lines?count=200&depth=1`);
    $('lines').replaceChildren(
      ...lines.map((line) => {
        const li = document.createElement('li');
        const code = document.createElement('span');
        code.className = 'line-code';
        code.textContent = line.code || line.id;
        code.style.background = line.color ? `#${line.color}` : '#ddd';
        code.style.color = line.text_color ? `#${line.text_color}` : '#000';
        li.append(code, line.name || '');
        li.addEventListener('click', () => loadTrips(line));
        return li;
      }),
    );
    setStatus(`${lines.length} lines.`);
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function loadTrips(line) {
  const day = $('trips-day').value.replace(/-/g, '');
  $('trips-title').hidden = false;
  $('trips-title').textContent = `Trips of ${line.code || line.name || line.id}`;
  $('stop-times').hidden = true;
  $('stop-times-title').hidden = true;
  clearTrip();
  try {
    // depth=2: each trip with its headsign, route and first and last stop times (depth 1 is only {id, name})
    const { trips = [] } = await api(`${coverageBase()}/lines/${encodeURIComponent(line.id)}/trips?since=${day}T000000&until=${day}T235959&depth=2&count=200`);
    const rows = [];
    for (const direction of byDirection(trips)) {
      const heading = document.createElement('li');
      heading.className = 'direction';
      heading.textContent = `→ ${direction.label} (${direction.trips.length})`;
      rows.push(heading);
      for (const trip of direction.trips) {
        const li = document.createElement('li');
        li.className = 'trip';
        li.textContent = `${formatTime(trip.first_stop_time?.departure_time ?? '')} → ${direction.label}`;
        li.title = trip.id;
        li.addEventListener('click', () => loadStopTimes(trip, direction.label));
        rows.push(li);
      }
    }
    $('trips').replaceChildren(...rows);
    setStatus(`${trips.length} trips on ${$('trips-day').value}.`);
  } catch (e) {
    $('trips').replaceChildren();
    setStatus(e.message, true);
  }
}

/**
 * Trips grouped by direction (their route and direction_id), each group labelled by its headsign,
 * else the name of its last stop, and ordered by first departure; groups in order of their first trip.
 */
function byDirection(trips) {
  const groups = new Map();
  for (const trip of trips) {
    const key = `${trip.route?.id ?? ''}|${trip.route?.direction_id ?? ''}`;
    if (!groups.has(key)) groups.set(key, { label: '', trips: [] });
    groups.get(key).trips.push(trip);
  }
  const departure = (trip) => trip.first_stop_time?.departure_time ?? '';
  const directions = [...groups.values()];
  for (const d of directions) {
    d.trips.sort((a, b) => departure(a).localeCompare(departure(b)));
    const first = d.trips[0];
    d.label = first.headsign || first.last_stop_time?.stop_point?.name || first.route?.name || first.name;
  }
  return directions.sort((a, b) => departure(a.trips[0]).localeCompare(departure(b.trips[0])));
}

function clearTrip() {
  if (state.tripLayer) state.tripLayer.remove();
  state.tripLayer = null;
}

async function loadStopTimes(trip, label) {
  const base = `${coverageBase()}/trips/${encodeURIComponent(trip.id)}/vehicle_journeys?depth=1`;
  const withRealtime = Boolean(state.view?.realtime);
  try {
    const planned = await api(`${base}&data_freshness=base_schedule`, !withRealtime);
    const live = withRealtime ? await api(`${base}&data_freshness=realtime`).catch(() => ({ vehicle_journeys: [] })) : null;
    const journey = planned.vehicle_journeys[0];
    const realtime = live?.vehicle_journeys?.[0];
    const realtimeTimes = new Map((realtime?.stop_times ?? []).map((st) => [st.stop_point.id, st]));
    $('realtime-head').hidden = !withRealtime;
    $('stop-times').tBodies[0].replaceChildren(
      ...journey.stop_times.map((st) => {
        const tr = document.createElement('tr');
        const cells = [[st.stop_point.name, ''], [formatTime(st.arrival_time), ''], [formatTime(st.departure_time), '']];
        if (withRealtime) cells.push(realtimeStatus(st, realtime, realtimeTimes.get(st.stop_point.id)));
        for (const [text, className] of cells) {
          const td = document.createElement('td');
          td.textContent = text;
          if (className) td.className = className;
          tr.append(td);
        }
        return tr;
      }),
    );
    $('stop-times-title').hidden = false;
    $('stop-times-title').textContent = `Stop times of ${formatTime(trip.first_stop_time?.departure_time ?? '')} → ${label} (${trip.id})`;
    $('stop-times').hidden = false;
    drawTrip(journey, trip.line?.color);
  } catch (e) {
    setStatus(e.message, true);
  }
}

/** The trip on the map: a line through its stops in order, each stop a dot; the map moves to it. */
function drawTrip(journey, colour) {
  clearTrip();
  const points = journey.stop_times.map((st) => st.stop_point.coord).filter((c) => c).map((c) => [Number(c.lat), Number(c.lon)]);
  if (points.length === 0) return;
  const stroke = colour ? `#${colour}` : '#1f3b57';
  state.tripLayer = L.layerGroup([
    L.polyline(points, { renderer: tripRenderer, color: stroke, weight: 4, opacity: 0.85, className: 'trip-line', interactive: false }),
    ...journey.stop_times
      .filter((st) => st.stop_point.coord)
      .map((st) =>
        L.circleMarker([Number(st.stop_point.coord.lat), Number(st.stop_point.coord.lon)], { renderer: tripRenderer, radius: 4, color: stroke, weight: 2, fillColor: '#fff', fillOpacity: 1, className: 'trip-stop' }).bindTooltip(
          `${formatTime(st.departure_time)} ${st.stop_point.name}`,
        ),
      ),
  ]).addTo(map);
  map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 16 });
}

/** What realtime says of a planned stop time: on time, a delay, skipped, or the whole trip cancelled. */
function realtimeStatus(planned, realtime, live) {
  if (!realtime) return ['cancelled', 'cancelled'];
  if (!live) return ['skipped', 'cancelled'];
  const delay = Math.round((seconds(live.departure_time) - seconds(planned.departure_time)) / 60);
  if (delay === 0) return ['on time', ''];
  return [`${delay > 0 ? '+' : ''}${delay} min`, delay > 0 ? 'late' : ''];
}

const seconds = (hhmmss) => Number(hhmmss.slice(0, 2)) * 3600 + Number(hhmmss.slice(2, 4)) * 60 + Number(hhmmss.slice(4, 6));
const formatTime = (hhmmss) => (hhmmss && hhmmss.length >= 4 ? `${hhmmss.slice(0, 2)}:${hhmmss.slice(2, 4)}` : '');

// ---- wiring --------------------------------------------------------------------------------------

function showTab(name) {
  if (name !== 'trips') clearTrip();
  // the scenario's lines over the heat maps and accessibility, not over today's trips
  scenarios.show(name !== 'trips');
  if (name !== 'access') access.clear();
  // one picture at a time: the origins' circles are not read over a heat map
  if (name === 'access') clearDrawings();
  for (const tab of document.querySelectorAll('.tab')) tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
  $('maps-panel').hidden = name !== 'maps';
  $('access-panel').hidden = name !== 'access';
  $('trips-panel').hidden = name !== 'trips';
  // the journeys' date, time and modes: for the heat maps and accessibility, not the trips
  $('journey').hidden = name === 'trips';
  showCompare();
  if (name === 'trips') loadLines();
}

async function start() {
  // both at once: the first paint waits for the coverage list, then the streets
  const coveragesAnswer = api('/v1/coverage', false);
  coveragesAnswer.catch(() => {}); // awaited in loadCoverages
  const settings = await api('/explorer/settings.json', false);
  RAMP = settings.colour_ramp;
  DIVERGING = settings.diverging_ramp;
  state.osmAttribution = settings.osm_attribution;
  state.maxBoundaries = settings.max_boundaries;
  if (settings.tile_url) L.tileLayer(settings.tile_url, { attribution: settings.tile_attribution, maxZoom: 19 }).addTo(map);
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showTab(tab.dataset.tab));
  $('coverage').addEventListener('change', (e) => chooseCoverage(e.target.value));
  $('place-search').addEventListener('input', (e) => searchPlaces(e.target.value));
  $('map-form').addEventListener('submit', draw);
  for (const id of ['freshness', 'view']) $(id).addEventListener('change', showCompare);
  $('trips-day').addEventListener('change', () => $('trips').replaceChildren());
  await loadCoverages(coveragesAnswer);
  document.body.dataset.ready = 'true';
}

start().catch((e) => setStatus(e.message, true));
