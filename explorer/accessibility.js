// The explorer's accessibility panel: how many opportunities of a point set every origin of the set
// reaches (the regional API, `accessibility?origins=SET`), drawn as coloured circles, and a clicked
// place's numbers (`accessibility?from=lon;lat`) in a popup. Shown only for a coverage with point
// sets (`/point_sets`). The journeys' date, time, mode, data and scenario are the page's (explorer.js);
// with a scenario and "compare with the base", a clicked place's numbers come with the base's and the
// difference (the API compares one place, not every origin of a set).
import { rampAt } from './ramp.js';
const L = window.L;
const $ = (id) => document.getElementById(id);

/**
 * A sequential ramp (ColorBrewer's YlGnBu): light for few opportunities, dark for many. Not the
 * heat map's green-to-red, which reads as "near is good": here more is better and nothing is neutral.
 */
const RAMP = [
  [0, [255, 255, 204]],
  [0.25, [161, 218, 180]],
  [0.5, [65, 182, 196]],
  [0.75, [44, 127, 184]],
  [1, [37, 52, 148]],
];
/** Origins that reach no point (off the street network): grey. */
const NONE_COLOUR = '#bbb';

/** The decays' own settings, as the panel's choices word them (docs/explorer.md). */
const DECAY_SETTINGS = {
  step: {},
  linear: { decay_width: '600' },
  logistic: { decay_standard_deviation: '600' },
  exponential: {},
};

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const rampColour = (fraction) => `rgb(${rampAt(RAMP, fraction).join(',')})`;

/** Counts as people read them: whole numbers grouped, fractions (from a decay) to one decimal; null (not computed) as a dash. */
const formatValue = (value) => (value === null ? '–' : value.toLocaleString('en', { maximumFractionDigits: 1 }));
/** A difference with its sign: "+12", "−3.5", "no change". */
const formatDifference = (value) => (value === null ? '–' : value === 0 ? 'no change' : `${value > 0 ? '+' : '−'}${formatValue(Math.abs(value))}`);

/**
 * The panel, bound to the page: `api(path)` (GET, shown as the request), `coverageBase()`,
 * `journeyParams(q, { compare })` (appends the date, modes, freshness, scenario and wheelchair; with
 * `compare`, the comparison the page asks), `setStatus(text, isError, warnings)`.
 */
export function accessibilityPanel({ map, api, coverageBase, journeyParams, setStatus }) {
  // SVG: a few thousand circles at most (MAX_ACCESSIBILITY_SEARCHES), each an element the browser test finds
  const renderer = L.svg({ padding: 0.2 });
  let layer = null;
  let serial = 0;

  function clear() {
    if (layer) layer.remove();
    layer = null;
    $('access-legend').hidden = true;
    map.closePopup();
  }

  /** The coverage's point sets: the tab shown only when it has some, their columns to choose from. */
  async function load() {
    clear();
    $('access-tab').hidden = true;
    delete $('access-tab').dataset.pointSets;
    let sets = [];
    try {
      ({ point_sets: sets = [] } = await api(`${coverageBase()}/point_sets`, false));
    } catch {
      // no point sets to offer: the tab stays hidden
    }
    $('access-opportunities').replaceChildren(
      ...sets.flatMap((set) => set.columns.map((c) => new Option(`${set.name}: ${c.name} (${formatValue(c.total)} in ${set.points.toLocaleString('en')} points)`, c.opportunities))),
    );
    $('access-tab').hidden = sets.length === 0;
    // how many sets, once known (the browser test waits for it)
    $('access-tab').dataset.pointSets = String(sets.length);
    return sets.length > 0;
  }

  /** The measure's parameters: the opportunities, the cutoff, the decay and its setting; `compare` for one place. */
  function measureQuery(q, compare = false) {
    journeyParams(q, { compare });
    q.append('opportunities[]', $('access-opportunities').value);
    q.append('cutoffs[]', String(Math.round(Number($('access-cutoff').value) * 60)));
    const decay = $('access-decay').value;
    q.set('decay_function', decay);
    for (const [name, value] of Object.entries(DECAY_SETTINGS[decay])) q.set(name, value);
    return q;
  }

  const pathOf = (q) => `${coverageBase()}/accessibility?${q.toString().replace(/%5B%5D/g, '[]').replace(/%3A/g, ':').replace(/%3B/g, ';')}`;

  /** Every origin of the set, coloured by its value, with a legend of the range. */
  async function compute(event) {
    event.preventDefault();
    const opportunities = $('access-opportunities').value;
    if (!opportunities) return;
    const run = ++serial;
    const q = new URLSearchParams();
    q.set('origins', opportunities.slice(0, opportunities.lastIndexOf(':')));
    setStatus('Computing the accessibility of every origin…');
    $('access-compute').disabled = true;
    try {
      const body = await api(pathOf(measureQuery(q)));
      if (run !== serial) return;
      draw(body.accessibility_by_origin, body.warnings ?? [], q.get('scenario'));
    } catch (e) {
      setStatus(e.message, true);
    } finally {
      $('access-compute').disabled = false;
    }
  }

  function draw(byOrigin, warnings, scenario) {
    clear();
    const measure = byOrigin.measures[0];
    const reached = measure.values.filter((v) => v !== null);
    const min = reached.length > 0 ? Math.min(...reached) : 0;
    const max = reached.length > 0 ? Math.max(...reached) : 0;
    const span = max - min;
    layer = L.layerGroup(
      byOrigin.origins.map((id, k) => {
        const value = measure.values[k];
        const colour = value === null ? NONE_COLOUR : rampColour(span > 0 ? (value - min) / span : 1);
        // not interactive: a click anywhere, on a circle too, asks that place's own numbers
        return L.circleMarker([byOrigin.lat[k], byOrigin.lon[k]], { renderer, className: 'access-point', radius: 5, weight: 0.5, color: '#333', fillColor: colour, fillOpacity: 0.9, interactive: false });
      }),
    ).addTo(map);
    const stops = RAMP.map(([t, c]) => `rgb(${c.join(',')}) ${t * 100}%`).join(', ');
    const none = byOrigin.origins.length - reached.length;
    $('access-legend').innerHTML =
      `<div>${measure.opportunities} within ${measure.cutoff / 60} min (${measure.decay_function})${scenario ? `, with ${escapeHtml(scenario)}` : ''}</div>` +
      `<div class="ramp" style="background: linear-gradient(to right, ${stops})"></div>` +
      `<div class="ticks"><span>${formatValue(min)}</span><span>${formatValue(max)}</span></div>` +
      (none > 0 ? `<div class="none"><span></span>${none} origin${none > 1 ? 's' : ''} off the street network</div>` : '');
    $('access-legend').hidden = false;
    setStatus(`${byOrigin.origins.length.toLocaleString('en')} origins: from ${formatValue(min)} to ${formatValue(max)} ${measure.opportunities}. Click the map for a place's numbers.`, false, warnings);
  }

  /** A clicked place's accessibility, in a popup where it was clicked. */
  async function clickAt(latlng) {
    const opportunities = $('access-opportunities').value;
    if (!opportunities) return;
    const lon = latlng.lng.toFixed(6);
    const lat = latlng.lat.toFixed(6);
    const q = new URLSearchParams();
    q.set('from', `${lon};${lat}`);
    const popup = L.popup({ className: 'access-popup' }).setLatLng(latlng).setContent('Computing…').openOn(map);
    try {
      const body = await api(pathOf(measureQuery(q, true)));
      const rows = body.accessibility.map((a) => {
        // against the base (compare_scenario): its value and the difference, as the answer gives them
        const versus = a.compare_scenario === undefined ? '' : `<br><span class="access-compared">${formatDifference(a.difference)} against the ${a.compare_scenario === 'base' ? 'base schedule' : escapeHtml(a.compare_scenario)} (${formatValue(a.compared_value)})</span>`;
        return `<tr><td><b class="access-value">${formatValue(a.value)}</b></td><td>${a.opportunities} within ${a.cutoff / 60} min (${a.decay_function})${versus}</td></tr>`;
      });
      popup.setContent(`<table>${rows.join('')}</table>`);
    } catch (e) {
      popup.setContent(e.message);
    }
  }

  $('access-form').addEventListener('submit', compute);
  return { load, clear, clickAt };
}
