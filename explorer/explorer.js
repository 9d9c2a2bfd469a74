// The explorer: Navette's own API drawn on a map. Every request it makes is an ordinary API call,
// shown under the form so that people learn the API. Leaflet (window.L) is loaded before this module.
const L = window.L;
const $ = (id) => document.getElementById(id);

/** The heat map's colours, [position in [0, 1], [r, g, b]], as the PNG format draws them (the server's settings). */
let RAMP = [];
const ISOCHRONE_STEP_SEC = 600;

const state = { maxBoundaries: 1, coverages: new Map(), region: null, coverage: null, place: null, heat: null, heatLayer: null, isochroneLayer: null, marker: null, streetsLayer: null };

const map = L.map('map', { preferCanvas: true, zoomControl: true }).setView([48.85, 2.35], 12);
const streetRenderer = L.canvas({ padding: 0.2 });

function setStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** GET an API path; the URL is shown under the form; Navitia's error bodies become readable messages. */
async function api(path, show = true) {
  const url = new URL(path, window.location.origin);
  if (show) {
    $('request-url').textContent = url.pathname + url.search;
    $('request-url').href = url.href;
  }
  const res = await fetch(url);
  const body = await res.json();
  if (!res.ok || body.error) {
    const message = body.error?.message ?? body.message ?? `HTTP ${res.status}`;
    throw new Error(message);
  }
  return body;
}

const coverageBase = () => `/v1/coverage/${encodeURIComponent(state.region)}`;

// ---- coverages and the background --------------------------------------------------------------

async function loadCoverages() {
  const { regions } = await api('/v1/coverage', false);
  const select = $('coverage');
  select.replaceChildren(...regions.map((r) => new Option(`${r.id}${r.name ? ` (${r.name})` : ''}`, r.id)));
  state.coverages = new Map(regions.map((r) => [r.id, r]));
  const wanted = new URLSearchParams(window.location.search).get('coverage');
  if (wanted && state.coverages.has(wanted)) select.value = wanted;
  await chooseCoverage(select.value);
}

async function chooseCoverage(region) {
  state.region = region;
  state.coverage = state.coverages.get(region);
  clearPlace();
  clearDrawings();
  const bounds = wktBounds(state.coverage.shape);
  if (bounds) map.fitBounds(bounds);
  setDefaultDatetime();
  $('draw').disabled = true;
  setStatus('Loading the streets…');
  if (state.streetsLayer) state.streetsLayer.remove();
  try {
    const streets = await api(`${coverageBase()}/street_network`, false);
    state.streetsLayer = L.geoJSON(streets, {
      renderer: streetRenderer,
      interactive: false,
      style: (f) => (f.properties.kind === 'road' ? { color: '#8a8f96', weight: 1.2, opacity: 0.8 } : { color: '#b5b9be', weight: 0.8, opacity: 0.8, dashArray: '2 3' }),
    }).addTo(map);
    if (!bounds && streets.features.some((f) => f.geometry.coordinates.length > 0)) map.fitBounds(state.streetsLayer.getBounds());
    setStatus('Search a stop or click the map to choose a place.');
  } catch (e) {
    setStatus(`Streets: ${e.message}`, true);
  }
  if ($('trips-panel').hidden === false) await loadLines();
}

/** The box of a coverage's WKT shape (MULTIPOLYGON of lon lat pairs), or null. */
function wktBounds(wkt) {
  const numbers = (wkt ?? '').match(/-?\d+(\.\d+)?\s+-?\d+(\.\d+)?/g);
  if (!numbers) return null;
  const points = numbers.map((pair) => pair.trim().split(/\s+/).map(Number));
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  return L.latLngBounds([Math.min(...lats), Math.min(...lons)], [Math.max(...lats), Math.max(...lons)]);
}

/** 08:00 on today's date inside the production period, else on its first day. */
function setDefaultDatetime() {
  const c = state.coverage;
  const today = new Date();
  const ymd = `${today.getFullYear()}${String(today.getMonth() + 1).padStart(2, '0')}${String(today.getDate()).padStart(2, '0')}`;
  const day = c.start_production_date && (ymd < c.start_production_date || ymd > c.end_production_date) ? c.start_production_date : ymd;
  const iso = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
  $('datetime').value = `${iso}T08:00`;
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
    $('place-results').replaceChildren(
      ...places.map((p) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        li.textContent = `${p.name} · ${p.embedded_type.replace('_', ' ')}`;
        const coord = p[p.embedded_type]?.coord;
        li.addEventListener('click', () => choosePlace({ id: p.id, name: p.name, lon: Number(coord.lon), lat: Number(coord.lat) }));
        return li;
      }),
    );
  } catch (e) {
    setStatus(`Search: ${e.message}`, true);
  }
}

map.on('click', (event) => {
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

function mapQuery() {
  const direction = document.querySelector('input[name="direction"]:checked').value;
  const maxDuration = Math.round(Number($('max-duration').value) * 60);
  const mode = $('mode').value;
  const q = new URLSearchParams();
  q.set(direction, state.place.id);
  q.set('datetime', $('datetime').value.replace(/[-:]/g, '') + '00');
  q.set('max_duration', String(maxDuration));
  q.append('first_section_mode[]', mode);
  q.append('last_section_mode[]', mode);
  q.set('data_freshness', $('freshness').value);
  if ($('wheelchair').checked) q.set('wheelchair', 'true');
  q.set('resolution', $('resolution').value);
  return { q, maxDuration };
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
    if (view === 'heat_maps') drawHeatMap(body.heat_maps[0].heat_matrix, maxDuration);
    else drawIsochrones(body.isochrones, maxDuration);
    setStatus(view === 'heat_maps' ? 'Hover the map to read a cell.' : `${body.isochrones.length} bands.`);
  } catch (e) {
    setStatus(e.message, true);
  } finally {
    $('draw').disabled = false;
  }
}

function rampColour(fraction) {
  const x = Math.min(1, Math.max(0, fraction));
  let k = 0;
  while (k < RAMP.length - 2 && x > RAMP[k + 1][0]) k++;
  const [t0, c0] = RAMP[k];
  const [t1, c1] = RAMP[k + 1];
  return c0.map((c, i) => Math.round(c + (c1[i] - c) * ((x - t0) / (t1 - t0))));
}

/** The heat matrix painted on a canvas, one pixel a cell, laid on the map over the grid's box. */
function drawHeatMap(matrix, maxDuration) {
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
      const [r, g, b] = rampColour(seconds / maxDuration);
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
  state.heat = { matrix, south, north, west, east };
  showRampLegend(maxDuration);
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
  $('cell-readout').textContent = seconds === null ? 'not reached' : `${Math.round(seconds / 60)} min (${seconds} s)`;
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
  try {
    // depth=2: each trip with its headsign, route and first departure (depth 1 is only {id, name})
    const { trips = [] } = await api(`${coverageBase()}/lines/${encodeURIComponent(line.id)}/trips?since=${day}T000000&until=${day}T235959&depth=2&count=200`);
    $('trips').replaceChildren(
      ...trips.map((trip) => {
        const li = document.createElement('li');
        const departure = trip.first_stop_time?.departure_time ?? '';
        li.textContent = `${formatTime(departure)} ${trip.headsign || trip.name}`;
        li.addEventListener('click', () => loadStopTimes(trip));
        return li;
      }),
    );
    setStatus(`${trips.length} trips on ${$('trips-day').value}.`);
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function loadStopTimes(trip) {
  const base = `${coverageBase()}/trips/${encodeURIComponent(trip.id)}/vehicle_journeys?depth=1`;
  try {
    const planned = await api(`${base}&data_freshness=base_schedule`, false);
    const live = await api(`${base}&data_freshness=realtime`).catch(() => ({ vehicle_journeys: [] }));
    const journey = planned.vehicle_journeys[0];
    const realtime = live.vehicle_journeys?.[0];
    const realtimeTimes = new Map((realtime?.stop_times ?? []).map((st) => [st.stop_point.id, st]));
    $('stop-times').tBodies[0].replaceChildren(
      ...journey.stop_times.map((st) => {
        const tr = document.createElement('tr');
        const status = realtimeStatus(st, realtime, realtimeTimes.get(st.stop_point.id));
        for (const [text, className] of [[st.stop_point.name, ''], [formatTime(st.arrival_time), ''], [formatTime(st.departure_time), ''], status]) {
          const td = document.createElement('td');
          td.textContent = text;
          if (className) td.className = className;
          tr.append(td);
        }
        return tr;
      }),
    );
    $('stop-times-title').hidden = false;
    $('stop-times-title').textContent = `Stop times of ${trip.headsign || trip.name} (${trip.id})`;
    $('stop-times').hidden = false;
  } catch (e) {
    setStatus(e.message, true);
  }
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
  for (const tab of document.querySelectorAll('.tab')) tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
  $('maps-panel').hidden = name !== 'maps';
  $('trips-panel').hidden = name !== 'trips';
  if (name === 'trips') loadLines();
}

async function start() {
  const settings = await api('/explorer/settings.json', false);
  RAMP = settings.colour_ramp;
  state.maxBoundaries = settings.max_boundaries;
  if (settings.tile_url) L.tileLayer(settings.tile_url, { attribution: settings.tile_attribution, maxZoom: 19 }).addTo(map);
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showTab(tab.dataset.tab));
  $('coverage').addEventListener('change', (e) => chooseCoverage(e.target.value));
  $('place-search').addEventListener('input', (e) => searchPlaces(e.target.value));
  $('map-form').addEventListener('submit', draw);
  $('trips-day').addEventListener('change', () => $('trips').replaceChildren());
  await loadCoverages();
  document.body.dataset.ready = 'true';
}

start().catch((e) => setStatus(e.message, true));
