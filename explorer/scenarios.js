// The explorer's scenarios (docs/scenarios.md): the coverage's named plans from `/scenarios`, a
// picker of the timetable the heat maps and accessibility run on ("today's (base)" or a scenario),
// "compare with the base" (`compare_scenario=base`), and the picked scenario's new and rerouted lines
// and new stops drawn on the map. Shown only for a coverage with scenarios. A scenario is a plan over
// the base schedule (the server refuses it with another data freshness): while one is picked, the
// page's data freshness is held at the base schedule.
const L = window.L;
const $ = (id) => document.getElementById(id);

/** The scenario's lines: a colour no other drawing of the page uses (the heat map's ramp, the trips' line colours are warm or blue). */
const LINE_COLOUR = '#c2185b';
const LINE_STYLE = {
  added: { color: LINE_COLOUR, weight: 5, opacity: 0.9 },
  // a changed (rerouted) pattern dashed: the line exists today, its path does not
  changed: { color: LINE_COLOUR, weight: 4, opacity: 0.9, dashArray: '8 6' },
};
const KIND_WORDS = { added: 'added', changed: 'changed' };

/** A scenario's first fault in words, for a refused one's tooltip. */
function faultWords(error) {
  if (!error) return 'refused';
  const where = [error.modification === null || error.modification === undefined ? null : `modification ${error.modification}`, error.field].filter(Boolean).join(', ');
  return `refused: ${where ? `${where}: ` : ''}${error.reason}`;
}

/**
 * The controls, bound to the page: `api(path, show)`, `coverageBase()`, `onChange()` (the picked
 * timetable changed: the page holds or frees its data freshness, and says what it offers).
 */
export function scenarioControls({ map, api, coverageBase, onChange }) {
  // above the heat map and the isochrones (the overlay pane, 400), under the tooltips; SVG: each line an element the browser test finds
  map.createPane('scenario').style.zIndex = '450';
  const renderer = L.svg({ padding: 0.2, pane: 'scenario' });
  /** each coverage's answer, asked once: region → Promise of its scenarios */
  const answers = new Map();
  let scenarios = [];
  let layer = null;
  let shown = true;
  let serial = 0;

  /** The picked scenario's name, or '' for today's timetable (the base). */
  const picked = () => $('scenario').value;

  function removeLayer() {
    if (layer) layer.remove();
    layer = null;
    $('scenario-legend').hidden = true;
    $('scenario-legend').replaceChildren();
  }

  /** The coverage's scenarios, the picker filled (hidden when there is none), `wanted` picked when it is one of them and usable. */
  async function load(region, wanted = null) {
    const run = ++serial;
    removeLayer();
    scenarios = [];
    $('scenario').replaceChildren(new Option("today's (base)", ''));
    $('scenario-compare').checked = false;
    delete $('scenario-label').dataset.scenarios;
    showControls();
    onChange();
    if (!answers.has(region)) {
      answers.set(
        region,
        api(`${coverageBase()}/scenarios`, false)
          .then((body) => body.scenarios ?? [])
          .catch(() => []),
      );
    }
    const list = await answers.get(region);
    if (run !== serial) return;
    scenarios = list;
    $('scenario').replaceChildren(
      new Option("today's (base)", ''),
      ...list.map((s) => {
        const option = new Option(s.status === 'ok' ? s.name : `${s.name} (${s.status === 'refused' ? 'refused' : 'being prepared'})`, s.name);
        option.disabled = s.status === 'refused';
        option.title = s.status === 'refused' ? faultWords(s.errors?.[0]) : (s.description ?? '');
        return option;
      }),
    );
    // how many, once known (the browser test waits for it)
    $('scenario-label').dataset.scenarios = String(list.length);
    if (wanted && list.some((s) => s.name === wanted && s.status !== 'refused')) $('scenario').value = wanted;
    pick();
  }

  /** The picker changed: the controls, the scenario's drawing, and the page's freshness. */
  function pick() {
    removeLayer();
    const scenario = scenarios.find((s) => s.name === picked());
    showControls(scenario);
    if (scenario && shown) draw(scenario);
    onChange();
  }

  function showControls(scenario = null) {
    $('scenario-label').hidden = scenarios.length === 0;
    $('scenario-compare-label').hidden = !scenario;
    if (!scenario) $('scenario-compare').checked = false;
    $('scenario-description').textContent = scenario?.description ?? '';
  }

  /** The scenario's lines (one per pattern; a line's two directions overlap) and new stops, and a legend naming them. */
  function draw(scenario) {
    const features = scenario.geojson?.features ?? [];
    layer = L.geoJSON(features, {
      renderer,
      // the lines' style (a new stop keeps its circle's, set below)
      style: (f) => (f.properties.kind === 'new_stop' ? {} : { ...(LINE_STYLE[f.properties.kind] ?? LINE_STYLE.added), className: `scenario-line scenario-${f.properties.kind}` }),
      pointToLayer: (f, latlng) => L.circleMarker(latlng, { renderer, className: 'scenario-stop', radius: 6, color: LINE_COLOUR, weight: 3, fillColor: '#fff', fillOpacity: 1 }),
      onEachFeature: (f, l) => {
        const p = f.properties;
        l.bindTooltip(p.kind === 'new_stop' ? `${p.name ?? p.id}: new stop (${scenario.name})` : `${p.name ?? p.line}: ${KIND_WORDS[p.kind] ?? p.kind} by ${scenario.name}${p.trips ? ` (${p.trips} trips)` : ''}`);
      },
    }).addTo(map);
    // one legend row per line and kind, then the new stops
    const rows = new Map();
    for (const f of features) {
      const p = f.properties;
      if (p.kind === 'new_stop') continue;
      rows.set(`${p.line}|${p.kind}`, { name: p.name ?? p.line, kind: p.kind });
    }
    const stops = features.filter((f) => f.properties.kind === 'new_stop').map((f) => f.properties.name ?? f.properties.id);
    const items = [...rows.values()].map(({ name, kind }) => {
      const div = document.createElement('div');
      const swatch = document.createElement('span');
      swatch.className = `scenario-swatch scenario-swatch-${kind}`;
      div.append(swatch, `${name}: ${KIND_WORDS[kind] ?? kind}`);
      return div;
    });
    if (stops.length > 0) {
      const div = document.createElement('div');
      const dot = document.createElement('span');
      dot.className = 'scenario-dot';
      div.append(dot, `new stop${stops.length > 1 ? 's' : ''}: ${stops.join(', ')}`);
      items.push(div);
    }
    $('scenario-legend').replaceChildren(...items);
    $('scenario-legend').hidden = items.length === 0;
  }

  /** Drawn on the heat maps' and accessibility tabs, not over the trips browser (today's lines). */
  function show(visible) {
    shown = visible;
    const scenario = scenarios.find((s) => s.name === picked());
    if (!visible) removeLayer();
    else if (scenario && !layer) draw(scenario);
  }

  /**
   * The picked timetable's parameters: `scenario=NAME`, and with `compare` (where the API gives a
   * difference: heat maps, one place's accessibility) and the box ticked, `compare_scenario=base`.
   */
  function params(q, { compare = false } = {}) {
    if (!picked()) return;
    q.set('scenario', picked());
    if (compare && $('scenario-compare').checked) q.set('compare_scenario', 'base');
  }

  $('scenario').addEventListener('change', pick);
  return {
    load,
    show,
    params,
    /** The picked scenario's name, or '' for the base. */
    picked,
  };
}
