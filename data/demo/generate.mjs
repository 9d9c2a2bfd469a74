#!/usr/bin/env node
/**
 * Generates the demo coverage of Navette: the fictional town of Valmont.
 *
 *   node data/demo/generate.mjs
 *
 * writes, next to this script:
 *   gtfs/         a GTFS feed (tram, buses, night bus, shuttle, on-demand bus, regional train)
 *   valmont.osm   an OpenStreetMap XML street extract of the town
 *   scenarios/    a scenario of the town, plan2030.json (docs/scenarios.md)
 *   navette.json  the server configuration serving both as the coverage `demo`, with its scenario
 *
 * No dependencies and no clock or randomness from the system: the output is the same on every run.
 *
 * Everything is built in a local plane (metres east and north of lon 4.80, lat 45.70). The town
 * is a slightly irregular grid of streets around the town hall (lon 4.85, lat 45.74); the transit
 * lines follow grid streets, so every stop stands a few metres from a street of the OSM extract.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------
// Deterministic randomness and the local plane
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = prng(0x56414c4d); // "VALM"

const LON0 = 4.8;
const LAT0 = 45.7;
const M_PER_DEG_LAT = 111_132;
const M_PER_DEG_LON = 111_320 * Math.cos((45.74 * Math.PI) / 180);
const WIDTH = 0.1 * M_PER_DEG_LON; // lon 4.80 to 4.90
const HEIGHT = 0.08 * M_PER_DEG_LAT; // lat 45.70 to 45.78
const XC = 0.05 * M_PER_DEG_LON; // the town hall, lon 4.85
const YC = 0.04 * M_PER_DEG_LAT; // lat 45.74

const lonOf = (x) => LON0 + x / M_PER_DEG_LON;
const latOf = (y) => LAT0 + y / M_PER_DEG_LAT;
const add = (p, q) => [p[0] + q[0], p[1] + q[1]];
const sub = (p, q) => [p[0] - q[0], p[1] - q[1]];
const mul = (p, k) => [p[0] * k, p[1] * k];
const len = (p) => Math.hypot(p[0], p[1]);
const dist = (p, q) => len(sub(p, q));
const unit = (p) => mul(p, 1 / len(p));
const right = (d) => [d[1], -d[0]]; // the right-hand normal of a direction
const lerp = (p, q, t) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];

// ---------------------------------------------------------------------------------------------
// The street grid
// ---------------------------------------------------------------------------------------------

/** Street spacing grows from the centre outwards: ~150 m blocks downtown, ~230 m at the edge. */
function spacing(d) {
  if (d < 1300) return 130 + 45 * rnd();
  if (d < 2600) return 165 + 50 * rnd();
  return 200 + 60 * rnd();
}

/** Positions of the grid lines along one axis: index 0 at the centre, negative indexes before it. */
function gridLines(centre, min, max) {
  const pos = [centre];
  for (let p = centre; ; ) {
    p += spacing(p - centre);
    if (p > max) break;
    pos.push(p);
  }
  const neg = [];
  for (let p = centre; ; ) {
    p -= spacing(centre - p);
    if (p < min) break;
    neg.push(p);
  }
  return { min: -neg.length, max: pos.length - 1, at: (k) => (k >= 0 ? pos[k] : neg[-k - 1]) };
}

const XL = gridLines(XC, 250, 7250); // north-south streets ("vertical" i)
const YL = gridLines(YC, 250, HEIGHT - 250); // east-west streets ("horizontal" j)
const tiltV = new Map();
const tiltH = new Map();
for (let i = XL.min; i <= XL.max; i++) tiltV.set(i, i === 0 ? 0 : (rnd() - 0.5) * 0.008);
for (let j = YL.min; j <= YL.max; j++) tiltH.set(j, j === 0 ? 0 : (rnd() - 0.5) * 0.008);

const pointCache = new Map();
/** The crossing of north-south street i and east-west street j. */
function P(i, j) {
  const key = `${i},${j}`;
  let p = pointCache.get(key);
  if (!p) {
    const s = tiltV.get(i);
    const t = tiltH.get(j);
    const X = XL.at(i);
    const Y = YL.at(j);
    const y = (Y + t * (X - XC) - t * s * YC) / (1 - t * s);
    p = [X + s * (y - YC), y];
    pointCache.set(key, p);
  }
  return p;
}
/** Point of east-west street j at abscissa x, and of north-south street i at ordinate y. */
const onH = (j, x) => [x, YL.at(j) + tiltH.get(j) * (x - XC)];
const onV = (i, y) => [XL.at(i) + tiltV.get(i) * (y - YC), y];

const AX = 3700;
const AY = 4250;
const ellipse = (p) => ((p[0] - XC) / AX) ** 2 + ((p[1] - YC) / AY) ** 2;
const validIndex = (i, j) => i >= XL.min && i <= XL.max && j >= YL.min && j <= YL.max;
/** The built-up area: grid crossings inside an ellipse around the centre. */
const inTown = (i, j) => validIndex(i, j) && ellipse(P(i, j)) <= 1;

// Grid edges: "v:i:j" joins (i,j)-(i,j+1); "h:i:j" joins (i,j)-(i+1,j).
const edges = new Map();
for (let i = XL.min; i <= XL.max; i++) {
  for (let j = YL.min; j <= YL.max; j++) {
    if (!inTown(i, j)) continue;
    if (inTown(i, j + 1)) edges.set(`v:${i}:${j}`, { tags: {} });
    if (inTown(i + 1, j)) edges.set(`h:${i}:${j}`, { tags: {} });
  }
}
const edgeKey = (a, b) => {
  if (a[0] === b[0]) return `v:${a[0]}:${Math.min(a[1], b[1])}`;
  if (a[1] === b[1]) return `h:${Math.min(a[0], b[0])}:${a[1]}`;
  throw new Error(`not a grid edge: ${a} ${b}`);
};

// ---------------------------------------------------------------------------------------------
// Street names and classes
// ---------------------------------------------------------------------------------------------

const PEOPLE = [
  'Victor Hugo', 'Émile Zola', 'Jean Moulin', 'Marie Curie', 'Jules Ferry', 'Paul Bert', 'Voltaire', 'Molière',
  'Condorcet', 'Lamartine', 'Alphonse Daudet', 'George Sand', 'Jules Verne', 'Anatole France', 'Albert Camus',
  'Paul Éluard', 'Jacques Prévert', 'Colette', 'Hector Berlioz', 'Claude Debussy', 'Maurice Ravel', 'Georges Bizet',
  'Lavoisier', 'André-Marie Ampère', 'Édouard Branly', 'François Arago', 'Pierre Brossolette', 'Lucie Aubrac',
  'Simone Veil', 'Rosa Parks', 'Charles Péguy', 'Frédéric Mistral', 'Edmond Rostand', 'Guy de Maupassant',
  'Stendhal', 'Rabelais', 'Montaigne', 'Jean Racine', 'Pierre Corneille', 'Jean de La Fontaine', 'Denis Diderot',
  'Jean-Jacques Rousseau', 'Montesquieu', 'Louise Michel', 'Olympe de Gouges', 'Georges Brassens', 'Édith Piaf',
  'Camille Claudel', 'Auguste Renoir', 'Claude Monet', 'Paul Cézanne', 'Henri Matisse', 'Eugène Delacroix',
  'Antoine de Saint-Exupéry', 'Blaise Pascal', 'René Descartes', 'Gustave Eiffel', 'Louis Lumière', 'Sadi Carnot',
  'Jean Monnet', 'Robert Schuman', 'Aristide Briand', 'Jean Zay', 'Germaine Tillion', 'Joséphine Baker',
  'Marcel Pagnol', 'Paul Verlaine', 'Arthur Rimbaud', 'Charles Baudelaire', 'Gérard de Nerval', 'Alfred de Musset',
  'Honoré de Balzac', 'Gustave Flaubert', 'Marcel Proust', 'Romain Rolland', 'Jean Giono', 'Henri Bergson',
  'Irène Joliot-Curie', 'Ambroise Paré', 'Xavier Bichat', 'Claude Bernard', 'Nicéphore Niépce', 'Joseph Fourier',
];
const PLACES = [
  'des Lilas', 'des Roses', 'des Acacias', 'des Érables', 'des Peupliers', 'des Platanes', 'des Marronniers',
  'des Cerisiers', 'des Noyers', 'des Châtaigniers', 'des Prés', 'des Champs', 'des Jardins', 'du Moulin',
  'de la Fontaine', 'du Lavoir', 'des Écoles', "de l'Église", 'de la Poste', 'des Vergers', 'des Saules',
  'des Chênes', 'des Bouleaux', 'des Pins', 'des Mimosas', 'des Glycines', 'des Violettes', 'des Iris',
  'des Capucines', 'des Coquelicots', 'des Bleuets', 'des Tisserands', 'des Tanneurs', 'des Forgerons',
  'du Four', 'de la Croix', 'du Puits', 'des Sources', 'du Ruisseau', 'des Genêts', 'des Bruyères', 'des Sorbiers',
  'des Hirondelles', 'des Alouettes', 'des Mésanges', 'du Coteau', 'de la Colline', 'du Belvédère',
];

const usedNames = new Set();
const namePool = [];
{
  const pool = [...PEOPLE.map((n) => `Rue ${n}`), ...PLACES.map((n) => `Rue ${n}`)];
  for (let k = pool.length - 1; k > 0; k--) {
    const m = Math.floor(rnd() * (k + 1));
    [pool[k], pool[m]] = [pool[m], pool[k]];
  }
  namePool.push(...pool);
}
let namePoolNext = 0;
/** A fresh street name; outer streets are "Allée" or "Chemin" rather than "Rue". */
function freshName(outer) {
  for (;;) {
    let name = namePool[namePoolNext++ % namePool.length];
    if (namePoolNext > namePool.length) name = name.replace(/^Rue /, namePoolNext > 2 * namePool.length ? 'Impasse ' : 'Allée ');
    else if (outer && namePoolNext % 3 === 0) name = name.replace(/^Rue /, 'Chemin ');
    if (!usedNames.has(name)) {
      usedNames.add(name);
      return name;
    }
  }
}
const claim = (name) => (usedNames.add(name), name);

// Arterials: [axis, index] -> { highway, names by section }. Sections: north/south of j=0 for a
// north-south street, west/east of i=0 for an east-west street.
const ARTERIALS = {
  'v:0': { highway: 'primary', N: 'Cours Jean Jaurès', S: 'Avenue Gambetta', extra: { maxspeed: '50', lanes: '2' } },
  'h:0': { highway: 'primary', W: 'Avenue de la République', E: 'Avenue de la Libération', extra: { maxspeed: '50', lanes: '2' } },
  'v:-9': { highway: 'secondary', N: 'Boulevard Pasteur', S: 'Boulevard Pasteur', extra: { maxspeed: '50' } },
  'v:8': { highway: 'secondary', N: 'Boulevard Carnot', S: 'Boulevard Carnot', extra: { maxspeed: '50' } },
  'h:9': { highway: 'secondary', W: 'Avenue Foch', E: 'Avenue Foch', extra: { maxspeed: '50' } },
  'h:-9': { highway: 'secondary', W: 'Avenue du 8 Mai 1945', E: 'Avenue du 8 Mai 1945', extra: { maxspeed: '50' } },
  'v:-4': { highway: 'tertiary', N: 'Rue de la Paix', S: 'Avenue de la Gare' },
  'h:-5': { highway: 'tertiary', W: 'Rue Pierre Sémard', E: 'Rue Pierre Sémard' },
  'v:6': { highway: 'tertiary', N: 'Avenue des Sports', S: 'Rue Ampère' },
  'v:-13': { highway: 'tertiary', N: 'Chemin de Bellevue', S: 'Rue de la Croix-Blanche' },
  'h:-13': { highway: 'tertiary', W: 'Boulevard des Essarts', E: "Avenue de l'Hôpital" },
  'h:14': { highway: 'tertiary', W: 'Rue des Vignes', E: 'Rue des Vignes' },
  'h:3': { highway: 'residential', W: 'Rue de la Halle', E: 'Rue du Marché' },
  'h:-17': { highway: 'unclassified', W: 'Route des Hameaux', E: 'Route des Hameaux' },
  'v:-12': { highway: 'residential', N: 'Rue des Brosses', S: 'Chemin des Brosses' },
};
for (const a of Object.values(ARTERIALS)) for (const s of ['N', 'S', 'W', 'E']) if (a[s]) claim(a[s]);

const sectionNames = new Map();
/** Name and base tags of grid edge `key`. */
function streetOf(key) {
  const [axis, a, b] = key.split(':');
  const i = Number(a);
  const j = Number(b);
  const line = axis === 'v' ? `v:${i}` : `h:${j}`;
  const section = axis === 'v' ? (j >= 0 ? 'N' : 'S') : i >= 0 ? 'E' : 'W';
  const art = ARTERIALS[line];
  const id = `${line}:${section}`;
  let name = art?.[section];
  if (!name) {
    name = sectionNames.get(id);
    if (!name) {
      sectionNames.set(id, (name = freshName(ellipse(P(i, j)) > 0.45)));
    }
  }
  return { highway: art?.highway ?? 'residential', name, extra: art?.extra ?? {} };
}
for (const [key, e] of edges) {
  const s = streetOf(key);
  e.tags = { highway: s.highway, name: s.name, ...s.extra };
}

// ---------------------------------------------------------------------------------------------
// Transit paths on the grid (used below for stops and shapes; their streets are never removed)
// ---------------------------------------------------------------------------------------------

/** Grid crossings along a path given by its corners (consecutive corners share i or j). */
function pathNodes(corners) {
  const out = [corners[0]];
  for (let k = 1; k < corners.length; k++) {
    const [i0, j0] = corners[k - 1];
    const [i1, j1] = corners[k];
    if (i0 !== i1 && j0 !== j1) throw new Error(`path corners ${corners[k - 1]} -> ${corners[k]} are not on one street`);
    const n = Math.abs(i1 - i0) + Math.abs(j1 - j0);
    for (let s = 1; s <= n; s++) out.push([i0 + (Math.sign(i1 - i0) * s), j0 + (Math.sign(j1 - j0) * s)]);
  }
  for (let k = 0; k < out.length; k++) {
    if (!inTown(...out[k])) throw new Error(`path crossing ${out[k]} is outside the town`);
    if (k > 0 && !edges.has(edgeKey(out[k - 1], out[k]))) throw new Error(`no street between ${out[k - 1]} and ${out[k]}`);
  }
  return out;
}

const GARE = [-4, -5];
const ROUNDABOUT = [8, 9];
const LINE_PATHS = {
  T1: [[0, 17], [0, -2], [-4, -2], [-4, -13], [5, -13]],
  2: [[-15, 0], [14, 0]],
  5: [GARE, [6, -5], [6, 15]],
  12: [GARE, [-13, -5], [-13, 10]],
  NAV: [GARE, [-2, -5], [-2, 3], [2, 3]],
  N1: [GARE, [-4, 0], [8, 0], [8, 13]],
  TAD: [[-4, -13], [-12, -13], [-12, -17], [-5, -17]],
};
const protectedEdges = new Set();
for (const corners of Object.values(LINE_PATHS)) {
  const nodes = pathNodes(corners);
  for (let k = 1; k < nodes.length; k++) protectedEdges.add(edgeKey(nodes[k - 1], nodes[k]));
}

// ---------------------------------------------------------------------------------------------
// Special places of the street network
// ---------------------------------------------------------------------------------------------

/** Free ways (not grid edges). `cross: false` ways meet others only at shared end points. */
const freeWays = [];
const freeWay = (pts, tags, cross = true) => (freeWays.push({ pts, tags, cross }), freeWays[freeWays.length - 1]);
const nodeTags = []; // [point, tags]

// The park: the crossings strictly inside cells i 2..5, j 5..8 disappear with their streets.
const PARK = { i0: 2, i1: 5, j0: 5, j1: 8 };
const inPark = (i, j) => i > PARK.i0 && i < PARK.i1 && j > PARK.j0 && j < PARK.j1;
for (const key of [...edges.keys()]) {
  const [axis, a, b] = key.split(':');
  const i = Number(a);
  const j = Number(b);
  const other = axis === 'v' ? [i, j + 1] : [i + 1, j];
  if (inPark(i, j) || inPark(...other)) edges.delete(key);
  else if (axis === 'v' && i > PARK.i0 && i < PARK.i1 && j >= PARK.j0 && j < PARK.j1) edges.delete(key);
  else if (axis === 'h' && j > PARK.j0 && j < PARK.j1 && i >= PARK.i0 && i < PARK.i1) edges.delete(key);
}
{
  const c00 = P(PARK.i0, PARK.j0);
  const c10 = P(PARK.i1, PARK.j0);
  const c11 = P(PARK.i1, PARK.j1);
  const c01 = P(PARK.i0, PARK.j1);
  const centre = mul(add(add(c00, c10), add(c11, c01)), 0.25);
  freeWay([c00, centre, c11], { highway: 'footway', name: 'Allée des Tilleuls', surface: 'compacted' });
  freeWay([c01, centre, c10], { highway: 'path', name: 'Sentier du Belvédère', surface: 'ground', bicycle: 'no' });
  const ring = [];
  for (let k = 0; k <= 24; k++) {
    const a = (2 * Math.PI * (k % 24)) / 24 + 0.13;
    ring.push(add(centre, [110 * Math.cos(a), 95 * Math.sin(a)]));
  }
  freeWay(ring, { highway: 'footway', name: 'Promenade du Kiosque', surface: 'fine_gravel' });
  // The belvedere steps: from the ring's northern point up to the street along the park's north side.
  const top = add(centre, [0, 95]);
  const north = lerp(P(3, PARK.j1), P(4, PARK.j1), 0.5);
  const landing = lerp(top, north, 0.55);
  freeWay([top, landing], { highway: 'footway', surface: 'paved' });
  freeWay([landing, north], { highway: 'steps', step_count: '42', handrail: 'yes', name: 'Escaliers du Belvédère' });
  const inset = (p) => add(p, mul(unit(sub(centre, p)), 12));
  freeWay([inset(c00), inset(c10), inset(c11), inset(c01), inset(c00)], { leisure: 'park', name: 'Parc des Tilleuls' }, false);
}

// The pedestrian square (Place des Halles) inside cell i -3..-2, j 1..2, reached by four footways from
// the cell corners; the street along its south side is a pedestrian street.
{
  const corners = [P(-3, 1), P(-2, 1), P(-2, 2), P(-3, 2)];
  const centre = mul(corners.reduce(add, [0, 0]), 0.25);
  const sq = corners.map((c) => add(centre, mul(sub(c, centre), 0.55)));
  freeWay([...sq, sq[0]], { highway: 'pedestrian', area: 'yes', name: 'Place des Halles', surface: 'paving_stones' }, false);
  corners.forEach((c, k) => freeWay([c, sq[k]], { highway: 'footway', surface: 'paving_stones' }, false));
  for (const key of ['h:-3:1', 'h:-4:1']) {
    const e = edges.get(key);
    e.tags = { highway: 'pedestrian', name: claim('Rue des Halles'), surface: 'paving_stones' };
    protectedEdges.add(key);
  }
  const e = edges.get('v:-2:1');
  e.tags = { highway: 'living_street', name: claim('Rue du Vieux Marché'), surface: 'sett' };
  protectedEdges.add('v:-2:1');
}

// Downtown one-way streets: j=2 eastbound, j=-3 westbound, i=2 northbound, i=-1 drawn northwards
// with oneway=-1 (southbound traffic).
for (const [key, e] of edges) {
  const [axis, a, b] = key.split(':');
  const i = Number(a);
  const j = Number(b);
  if (e.tags.highway !== 'residential') continue;
  if (axis === 'h' && j === 2 && i >= -6 && i < 6) e.oneway = 'yes';
  if (axis === 'h' && j === -3 && i >= -6 && i < 6) e.oneway = 'reverse';
  if (axis === 'v' && i === 2 && j >= -4 && j < 2) e.oneway = 'yes';
  if (axis === 'v' && i === -1 && j >= -4 && j < 4) e.oneway = '-1';
}

// Block passages through the centre (footways from mid-edge to mid-edge).
{
  freeWay([lerp(P(1, -1), P(2, -1), 0.5), lerp(P(1, -2), P(2, -2), 0.5)], { highway: 'footway', name: 'Passage des Arcades', covered: 'yes' });
  freeWay([lerp(P(-3, -1), P(-3, 0), 0.5), lerp(P(-2, -1), P(-2, 0), 0.5)], { highway: 'footway', name: 'Passage du Théâtre' });
  protectedEdges.add('h:1:-1').add('h:1:-2').add('v:-3:-1').add('v:-2:-1');
}

// The station car park (service aisles north of Rue Pierre Sémard) and the tram depot (private).
{
  const a = P(-4, -5);
  const b = P(-3, -5);
  const n = unit(right(sub(a, b))); // left of west->east: north
  const p1 = lerp(a, b, 0.3);
  const p2 = lerp(a, b, 0.75);
  freeWay([p1, add(p1, mul(n, 45)), add(p2, mul(n, 45)), p2], { highway: 'service', service: 'parking_aisle', oneway: 'yes', name: 'Parking de la Gare' });
  freeWay([add(p1, mul(n, 22)), add(p2, mul(n, 22))], { highway: 'service', service: 'parking_aisle' });
  protectedEdges.add('h:-4:-5');
  const s = P(5, -13);
  const down = unit(sub(P(5, -14), s));
  const east = unit(sub(P(6, -13), s));
  const d1 = add(s, mul(down, 90));
  freeWay([s, d1, add(d1, mul(east, 70))], { highway: 'service', access: 'private', name: 'Accès Dépôt Tramway' });
  nodeTags.push([d1, { barrier: 'gate', access: 'private' }]);
}

// The greenway: a shared cycle and foot path crossing the north-west quarter diagonally.
{
  const a = P(-11, 5);
  const b = P(-3, 16);
  const mid = add(lerp(a, b, 0.5), [90, -60]);
  const pts = [];
  for (let k = 0; k <= 12; k++) {
    const t = k / 12;
    pts.push(add(mul(a, (1 - t) ** 2), add(mul(mid, 2 * t * (1 - t)), mul(b, t * t))));
  }
  freeWay(pts, { highway: 'cycleway', foot: 'designated', segregated: 'no', name: 'Voie verte des Monts', surface: 'asphalt' });
}

// Cul-de-sacs: short dead-end streets into the outer blocks.
{
  let made = 0;
  const keys = [...edges.keys()].filter((k) => edges.get(k).tags.highway === 'residential').sort();
  for (const key of keys) {
    if (made >= 16 || rnd() > 0.06) continue;
    const [axis, a, b] = key.split(':');
    const i = Number(a);
    const j = Number(b);
    const p = P(i, j);
    const q = axis === 'v' ? P(i, j + 1) : P(i + 1, j);
    if (ellipse(p) < 0.3 || dist(p, q) < 185) continue;
    const side = rnd() < 0.5 ? 1 : -1;
    const cellOk = axis === 'v' ? inTown(i + side, j) && inTown(i + side, j + 1) : inTown(i, j + side) && inTown(i + 1, j + side);
    if (!cellOk || (axis === 'v' ? inPark(i + side, j) : inPark(i, j + side))) continue;
    const base = lerp(p, q, 0.5);
    const dir = mul(unit(right(sub(q, p))), -side * (axis === 'v' ? -1 : 1));
    const end = add(base, mul(dir, 65));
    freeWay([base, end], { highway: 'residential', name: freshName(true).replace(/^(Rue|Allée|Chemin) /, 'Impasse '), noexit: 'yes' });
    protectedEdges.add(key);
    made++;
  }
}

// Roundabout where Boulevard Carnot meets Avenue Foch.
const RB_RADIUS = 22;
const roundaboutEntry = new Map(); // neighbour crossing "i,j" -> entry point on the ring
{
  const [ri, rj] = ROUNDABOUT;
  const c = P(ri, rj);
  const entries = [];
  for (const [di, dj] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
    const nb = P(ri + di, rj + dj);
    const e = add(c, mul(unit(sub(nb, c)), RB_RADIUS));
    roundaboutEntry.set(`${ri + di},${rj + dj}`, e);
    entries.push(e);
  }
  const ang = (p) => Math.atan2(p[1] - c[1], p[0] - c[0]);
  const pts = [...entries];
  for (let k = 0; k < 16; k++) {
    const a = (2 * Math.PI * k) / 16 - Math.PI + 0.2;
    if (entries.every((e) => Math.abs(Math.atan2(Math.sin(ang(e) - a), Math.cos(ang(e) - a))) > 0.2)) pts.push(add(c, [RB_RADIUS * Math.cos(a), RB_RADIUS * Math.sin(a)]));
  }
  pts.sort((p, q) => ang(p) - ang(q)); // counter-clockwise: traffic keeps right
  freeWay([...pts, pts[0]], { highway: 'secondary', junction: 'roundabout', name: 'Rond-point des Platanes' }, false);
}

// Random street closures in the outer town (superblocks and dead ends), keeping the grid connected.
{
  const crossingCount = () => {
    const cells = new Set();
    for (const key of edges.keys()) {
      const [axis, a, b] = key.split(':');
      const i = Number(a);
      const j = Number(b);
      cells.add(`${i},${j}`).add(axis === 'v' ? `${i},${j + 1}` : `${i + 1},${j}`);
    }
    return cells.size;
  };
  const crossings = crossingCount();
  const gridConnected = () => {
    const adj = new Map();
    const link = (a, b) => {
      (adj.get(a) ?? adj.set(a, []).get(a)).push(b);
      (adj.get(b) ?? adj.set(b, []).get(b)).push(a);
    };
    for (const key of edges.keys()) {
      const [axis, a, b] = key.split(':');
      const i = Number(a);
      const j = Number(b);
      link(`${i},${j}`, axis === 'v' ? `${i},${j + 1}` : `${i + 1},${j}`);
    }
    const start = adj.keys().next().value;
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length) for (const n of adj.get(stack.pop())) if (!seen.has(n)) (seen.add(n), stack.push(n));
    return seen.size === crossings;
  };
  const keys = [...edges.keys()].sort();
  for (const key of keys) {
    const e = edges.get(key);
    if (e.tags.highway !== 'residential' || protectedEdges.has(key) || e.oneway) continue;
    const [axis, a, b] = key.split(':');
    const p = P(Number(a), Number(b));
    if (ellipse(p) < 0.25 || rnd() > 0.07) continue;
    if (axis === 'v' ? `${a},${b}` === `${ROUNDABOUT}` : false) continue;
    edges.delete(key);
    if (!gridConnected()) edges.set(key, e);
  }
}

// ---------------------------------------------------------------------------------------------
// Grid edges into ways: maximal runs of one street with the same tags
// ---------------------------------------------------------------------------------------------

const ways = []; // { pts, tags, cross, handle? }
function emitRuns(axis, index, from, to) {
  let run = null;
  let runTags = '';
  const flush = () => {
    if (run && run.pts.length >= 2) ways.push(run);
    run = null;
  };
  const pt = (k) => (axis === 'v' ? P(index, k) : P(k, index));
  const keyOf = (k) => (axis === 'v' ? `v:${index}:${k}` : `h:${k}:${index}`);
  const isRb = (k) => (axis === 'v' ? index === ROUNDABOUT[0] && k === ROUNDABOUT[1] : index === ROUNDABOUT[1] && k === ROUNDABOUT[0]);
  const cellKey = (k) => (axis === 'v' ? `${index},${k}` : `${k},${index}`);
  for (let k = from; k < to; k++) {
    const e = edges.get(keyOf(k));
    if (!e) {
      flush();
      continue;
    }
    const tags = { ...e.tags };
    if (e.oneway === 'yes' || e.oneway === 'reverse') tags.oneway = 'yes';
    if (e.oneway === '-1') tags.oneway = '-1';
    const sig = JSON.stringify(tags) + (e.oneway ?? '');
    if (!run || sig !== runTags || isRb(k)) {
      flush();
      run = { pts: [isRb(k) ? roundaboutEntry.get(cellKey(k + 1)) : pt(k)], tags, cross: true, reverse: e.oneway === 'reverse', cells: [cellKey(k)] };
      runTags = sig;
    }
    if (isRb(k + 1)) {
      run.pts.push(roundaboutEntry.get(cellKey(k)));
      run.cells.push(cellKey(k + 1));
      flush();
    } else {
      run.pts.push(pt(k + 1));
      run.cells.push(cellKey(k + 1));
    }
  }
  flush();
}
for (let i = XL.min; i <= XL.max; i++) emitRuns('v', i, YL.min, YL.max);
for (let j = YL.min; j <= YL.max; j++) emitRuns('h', j, XL.min, XL.max);
for (const w of ways) if (w.reverse) w.pts.reverse();
/** The grid way of a street that contains the segment between two crossings. */
const gridWayAt = (a, b) => ways.find((w) => w.cells && w.cells.some((c, k) => k > 0 && ((c === `${a}` && w.cells[k - 1] === `${b}`) || (c === `${b}` && w.cells[k - 1] === `${a}`))));

// Roads out of town: extensions of the arterials to the edge of the map.
function extremes(axis, index) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const key of edges.keys()) {
    const [ax, a, b] = key.split(':');
    if (ax !== axis) continue;
    const i = Number(a);
    const j = Number(b);
    if (axis === 'v' && i === index) (lo = Math.min(lo, j)), (hi = Math.max(hi, j + 1));
    if (axis === 'h' && j === index) (lo = Math.min(lo, i)), (hi = Math.max(hi, i + 1));
  }
  return [lo, hi];
}
const extensions = [
  ['v', 0, 'hi', { highway: 'primary', name: 'Route de Bellecombe', maxspeed: '80', ref: 'D 512' }],
  ['v', 0, 'lo', { highway: 'primary', name: 'Route de la Plaine', maxspeed: '80', ref: 'D 512' }],
  ['h', 0, 'lo', { highway: 'primary', name: 'Route de Saint-Cyr', maxspeed: '80', ref: 'D 47' }],
  ['h', 9, 'lo', { highway: 'unclassified', name: 'Chemin de la Côte' }],
  ['h', -9, 'lo', { highway: 'tertiary', name: 'Route de la Croix-Blanche', maxspeed: '70' }],
  ['v', -9, 'lo', { highway: 'unclassified', name: 'Chemin des Granges' }],
  ['v', 8, 'hi', { highway: 'secondary', name: 'Route de Montverdun', maxspeed: '70', ref: 'D 48' }],
];
const extensionWays = {};
for (const [axis, index, side, tags] of extensions) {
  claim(tags.name);
  const [lo, hi] = extremes(axis, index);
  const k = side === 'lo' ? lo : hi;
  const start = axis === 'v' ? P(index, k) : P(k, index);
  const end = axis === 'v' ? onV(index, side === 'lo' ? 0 : HEIGHT) : onH(index, side === 'lo' ? 0 : WIDTH);
  const pts = [start];
  const n = Math.ceil(dist(start, end) / 250);
  for (let s = 1; s <= n; s++) pts.push(add(lerp(start, end, s / n), s < n ? [Math.sin(s * 1.7) * 6, Math.cos(s * 1.3) * 6] : [0, 0]));
  extensionWays[`${axis}${index}${side}`] = freeWay(pts, tags);
}
// Farm tracks in the south-west corner, off the Route de la Croix-Blanche.
{
  const road = extensionWays['h-9lo'].pts;
  const a = lerp(road[0], road[1], 0.6);
  road.splice(1, 0, a);
  freeWay([a, add(a, [120, -420]), add(a, [380, -700]), add(a, [900, -1050])], { highway: 'track', tracktype: 'grade3', name: 'Chemin rural des Granges' });
}

// The motorway across the south-east corner, with a diamond interchange and a bridge.
{
  const m0 = [5600, 12];
  const m1 = [WIDTH - 12, 2300];
  const d = unit(sub(m1, m0));
  const n = right(d); // east side of the motorway
  const M = lerp(m0, m1, 0.55);
  const A = add(M, mul(n, -110)); // town side of the bridge
  const B = add(M, mul(n, 110));
  const along = (s, off) => add(add(M, mul(d, s)), mul(n, off));
  const total = dist(m0, m1);
  const sM = dist(m0, M);
  const carriageway = (off, forward) => {
    const s = [-sM, -250, 250, total - sM];
    for (let v = -sM + 300; v < total - sM; v += 350) if (Math.abs(v + 250) > 60 && Math.abs(v - 250) > 60) s.push(v);
    s.sort((x, y) => x - y);
    const pts = s.map((v) => along(v, off));
    return forward ? pts : pts.reverse();
  };
  const motorway = { highway: 'motorway', ref: 'A 97', name: 'Autoroute des Monts', oneway: 'yes', lanes: '2', maxspeed: '130', foot: 'no', bicycle: 'no' };
  freeWay(carriageway(12, true), motorway, false);
  freeWay(carriageway(-12, false), motorway, false);
  const link = { highway: 'motorway_link', oneway: 'yes', maxspeed: '70' };
  const ramp = (from, to, bulge) => [from, add(lerp(from, to, 0.5), bulge), to];
  freeWay(ramp(along(250, -12), A, mul(d, 25)), { ...link, destination: 'Valmont' }, false);
  freeWay(ramp(A, along(-250, -12), mul(d, -25)), { ...link, destination: 'Saint-Cyr' }, false);
  freeWay(ramp(along(-250, 12), B, mul(d, -25)), { ...link, destination: 'Valmont' }, false);
  freeWay(ramp(B, along(250, 12), mul(d, 25)), { ...link, destination: 'Montverdun' }, false);
  // The access road from the nearest crossing of the town to the interchange.
  let best = null;
  for (const key of edges.keys()) {
    const [axis, a, b] = key.split(':');
    const q = P(Number(a), Number(b));
    if (!best || dist(q, M) < dist(best, M)) best = q;
  }
  freeWay([best, add(lerp(best, A, 0.5), [-40, 30]), A], { highway: 'secondary', name: claim("Route de l'Échangeur"), maxspeed: '70' });
  freeWay([A, B], { highway: 'secondary', name: claim("Pont de l'Échangeur"), bridge: 'yes', layer: '1', foot: 'no', bicycle: 'no', maxspeed: '70' }, false);
  const east = add(B, mul(n, (WIDTH - 0.5 - B[0]) / n[0]));
  const mid = lerp(B, east, 0.5);
  freeWay([B, mid, east], { highway: 'secondary', name: claim('Route de Chambéry'), maxspeed: '80', ref: 'D 48' }, false);
  freeWay([mid, add(mid, [90, 300]), [WIDTH - 170, 1500]], { highway: 'track', tracktype: 'grade2', name: 'Chemin de la Ferme des Granges' }, false);
}

// ---------------------------------------------------------------------------------------------
// Transit: stops
// ---------------------------------------------------------------------------------------------

const stops = new Map(); // id -> stop
const stopAt = new Map(); // "i,j" -> stop id (street stops)
const usedStopNames = new Set();
let stopCode = 1001;

function slug(name) {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
function stopNameOfStreet(street) {
  let s = street.replace(/^(Rue|Avenue|Boulevard|Allée|Chemin|Cours|Route|Impasse|Place|Passage) /, '');
  s = s.replace(/^du (\d)/, '$1').replace(/^des /, 'Les ').replace(/^du /, 'Le ').replace(/^de la /, 'La ').replace(/^de l'/, "L'").replace(/^de /, '');
  return s[0].toUpperCase() + s.slice(1);
}
/** Name of the street crossing a path at (i,j), the path going along `axis`. */
function crossStreet(i, j, axis) {
  const keys = axis === 'v' ? [`h:${i}:${j}`, `h:${i - 1}:${j}`] : [`v:${i}:${j}`, `v:${i}:${j - 1}`];
  for (const k of keys) if (edges.has(k)) return edges.get(k).tags.name;
  return streetOf(keys[0]).name;
}

const STOP_NAMES = {
  '0,0': 'Hôtel de Ville',
  '0,17': 'Les Coteaux',
  '5,-13': 'Hôpital Sud',
  '-4,-13': 'Les Essarts',
  '-15,0': 'Les Tuileries',
  '14,0': "Parc d'Activités Est",
  '6,15': 'Campus des Crêts',
  '-13,10': 'Bellevue',
  '8,13': 'Les Hauts de Valmont',
  '2,3': 'Place du Marché',
  '6,6': 'Parc des Tilleuls',
  '-5,-17': 'Chante-Alouette',
};
const TAD_NAMES = ['Le Mas Rivet', 'La Grange Neuve', 'Le Pré Fleuri', 'Le Bourg-Vieux'];
/** Names for stops whose cross street already names another stop. */
const LANDMARKS = [
  'Lycée Jean Monnet', 'Médiathèque', 'Stade Municipal', 'Piscine des Vergers', 'Collège Lamartine', 'Église Saint-Martin',
  'Maison de Santé', 'Gymnase Jean Zay', 'Cimetière', 'Centre Commercial', 'Caserne des Pompiers', 'Les Halles',
  'Conservatoire', 'Mairie Annexe', 'Résidence les Tilleuls', 'Groupe Scolaire Pasteur', 'Salle des Fêtes', 'La Poste',
];
let landmark = 0;
for (const name of [...Object.values(STOP_NAMES), ...TAD_NAMES, 'Valmont Gare', 'La Croix-Blanche', 'Valmont-Ouest', 'Valmont-Est Technopôle', 'Montverdun']) usedStopNames.add(name);

function addStop(stop) {
  stops.set(stop.id, stop);
  usedStopNames.add(stop.name);
  return stop;
}

// The station: a parent and its platforms around the crossing of Avenue de la Gare and Rue Pierre Sémard.
const G = P(...GARE);
const RAIL_AT_GARE = add(G, [60, -17]);
addStop({ id: 'GARE', name: 'Valmont Gare', pt: add(G, [28, -22]), type: 1, wheelchair: 1 });
const garePlatform = (id, name, off, code, wheelchair = 1) =>
  addStop({ id, name, pt: add(G, off), type: 0, parent: 'GARE', platform: code, wheelchair, code: String(stopCode++) });
garePlatform('GARE-T', 'Valmont Gare', [-7, -30], 'T');
garePlatform('GARE-A', 'Valmont Gare', [35, 7], 'A');
garePlatform('GARE-B', 'Valmont Gare', [-35, 7], 'B');
garePlatform('GARE-C', 'Valmont Gare', [7, 35], 'C', 0);
addStop({ id: 'GARE-1', name: 'Valmont Gare', pt: add(RAIL_AT_GARE, [0, 5]), type: 0, parent: 'GARE', platform: '1', wheelchair: 1 });
addStop({ id: 'GARE-2', name: 'Valmont Gare', pt: add(RAIL_AT_GARE, [0, -5]), type: 0, parent: 'GARE', platform: '2', wheelchair: 1 });
usedStopNames.add('Valmont Gare');
const GARE_PLATFORM = { T1: 'GARE-T', 5: 'GARE-A', NAV: 'GARE-A', 12: 'GARE-B', N1: 'GARE-C' };

const LINE_STOP_RULES = {
  T1: { target: 430, keys: [[0, 0], [0, 9], [-4, -13]] },
  2: { target: 440, keys: [[-13, 0], [-4, 0], [0, 0], [6, 0], [8, 0]] },
  5: { target: 440, keys: [[6, 0], [6, 6]] },
  12: { target: 440, keys: [[-13, 0]] },
  NAV: { target: 420, keys: [] },
  N1: { target: 420, keys: [] },
  TAD: { target: 650, keys: [] },
};
const LINE_ORDER = ['T1', '2', '5', '12', 'NAV', 'N1', 'TAD'];

/** Stops of each street line: [{ stop id, path index }], and the path itself. */
const lineStops = {};
let tadName = 0;
for (const line of LINE_ORDER) {
  const nodes = pathNodes(LINE_PATHS[line]);
  const cum = [0];
  for (let k = 1; k < nodes.length; k++) cum.push(cum[k - 1] + dist(P(...nodes[k - 1]), P(...nodes[k])));
  const rule = LINE_STOP_RULES[line];
  const isKey = (n) => rule.keys.some((k) => k[0] === n[0] && k[1] === n[1]);
  const forced = new Set();
  nodes.forEach((n, k) => {
    if (k === 0 || k === nodes.length - 1 || isKey(n) || stopAt.has(`${n}`) || `${n}` === `${GARE}`) forced.add(k);
  });
  const chosen = new Set(forced);
  const f = [...forced].sort((a, b) => a - b);
  for (let m = 1; m < f.length; m++) {
    const a = f[m - 1];
    const b = f[m];
    const D = cum[b] - cum[a];
    const extra = Math.max(0, Math.round(D / rule.target) - 1);
    for (let s = 1; s <= extra; s++) {
      const goal = cum[a] + (D * s) / (extra + 1);
      let best = -1;
      for (let k = a + 1; k < b; k++) {
        if (chosen.has(k) || `${nodes[k]}` === `${ROUNDABOUT}`) continue;
        if (best < 0 || Math.abs(cum[k] - goal) < Math.abs(cum[best] - goal)) best = k;
      }
      if (best >= 0) chosen.add(best);
    }
  }
  const list = [];
  for (const k of [...chosen].sort((a, b) => a - b)) {
    const n = nodes[k];
    const cell = `${n}`;
    let id;
    if (cell === `${GARE}`) id = GARE_PLATFORM[line];
    else if (stopAt.has(cell)) id = stopAt.get(cell);
    else {
      const here = P(...n);
      const next = k + 1 < nodes.length ? P(...nodes[k + 1]) : null;
      const prev = k > 0 ? P(...nodes[k - 1]) : null;
      const dir = next ? unit(sub(next, here)) : unit(sub(here, prev));
      const along = next ? 22 : -22;
      const pt = add(add(here, mul(dir, along)), mul(right(dir), 7));
      const axis = next ? (nodes[k + 1][0] === n[0] ? 'v' : 'h') : nodes[k - 1][0] === n[0] ? 'v' : 'h';
      let name = STOP_NAMES[cell];
      if (!name && line === 'TAD') name = TAD_NAMES[tadName++];
      if (!name) {
        name = stopNameOfStreet(crossStreet(n[0], n[1], axis));
        if (usedStopNames.has(name)) name = LANDMARKS[landmark++];
      }
      id = slug(name);
      if (stops.has(id)) throw new Error(`duplicate stop id ${id}`);
      const outer = ellipse(here) > 0.55;
      addStop({ id, name, pt, type: 0, code: String(stopCode++), wheelchair: line === 'TAD' ? 2 : outer && line === '12' ? 0 : 1, cell });
      stopAt.set(cell, id);
    }
    list.push({ id, k });
  }
  lineStops[line] = { nodes, cum, stops: list };
}

// The regional train: a smooth track through five stations, crossing the town from west to north-east.
const RAIL_STATIONS = [
  { id: 'CROIX-BLANCHE', name: 'La Croix-Blanche', pt: add(P(-15, -9), [15, -18]) },
  { id: 'VALMONT-OUEST', name: 'Valmont-Ouest', pt: add(P(-10, -7), [10, -16]) },
  { id: 'GARE', pt: RAIL_AT_GARE },
  { id: 'VALMONT-EST', name: 'Valmont-Est Technopôle', pt: add(P(7, -2), [-12, -15]) },
  { id: 'MONTVERDUN', name: 'Montverdun', pt: add(P(14, 6), [-15, 12]) },
];
for (const s of RAIL_STATIONS) if (s.name) addStop({ id: s.id, name: s.name, pt: s.pt, type: 0, wheelchair: 1 });
/** Catmull-Rom spline through the stations, sampled every ~60 m. */
const railPts = [];
const railStationIndex = [];
{
  const c = RAIL_STATIONS.map((s) => s.pt);
  const ext = [sub(mul(c[0], 2), c[1]), ...c, sub(mul(c[c.length - 1], 2), c[c.length - 2])];
  for (let s = 1; s < ext.length - 2; s++) {
    const [p0, p1, p2, p3] = [ext[s - 1], ext[s], ext[s + 1], ext[s + 2]];
    railStationIndex.push(railPts.length);
    const steps = Math.max(4, Math.round(dist(p1, p2) / 60));
    for (let k = 0; k < steps; k++) {
      const t = k / steps;
      const t2 = t * t;
      const t3 = t2 * t;
      const f = (a, b, cc, d) => 0.5 * (2 * b + (-a + cc) * t + (2 * a - 5 * b + 4 * cc - d) * t2 + (-a + 3 * b - 3 * cc + d) * t3);
      railPts.push([f(p0[0], p1[0], p2[0], p3[0]), f(p0[1], p1[1], p2[1], p3[1])]);
    }
  }
  railStationIndex.push(railPts.length);
  railPts.push(c[c.length - 1]);
}
const railCum = [0];
for (let k = 1; k < railPts.length; k++) railCum.push(railCum[k - 1] + dist(railPts[k - 1], railPts[k]));
freeWay(railPts, { railway: 'rail', usage: 'branch', name: 'Ligne de La Croix-Blanche à Montverdun', gauge: '1435', electrified: 'contact_line' }, false);

// OSM bus and tram stop nodes (standalone nodes, not part of the ways).
for (const line of LINE_ORDER) {
  for (const { id } of lineStops[line].stops) {
    const s = stops.get(id);
    if (s.osmTagged) continue;
    s.osmTagged = true;
    nodeTags.push([s.pt, line === 'T1' ? { railway: 'tram_stop', public_transport: 'stop_position', name: s.name, tram: 'yes' } : { highway: 'bus_stop', public_transport: 'platform', name: s.name, bus: 'yes' }, true]);
  }
}

// ---------------------------------------------------------------------------------------------
// OSM: nodes, crossings, ways
// ---------------------------------------------------------------------------------------------

function buildOsm() {
  const nodes = []; // [x, y]
  const cellSize = 2;
  const hash = new Map();
  const nodeAt = (p, create = true) => {
    const cx = Math.floor(p[0] / cellSize);
    const cy = Math.floor(p[1] / cellSize);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const id of hash.get(`${cx + dx},${cy + dy}`) ?? []) if (dist(nodes[id - 1], p) < 0.5) return id;
      }
    }
    if (!create) return 0;
    nodes.push([p[0], p[1]]);
    const id = nodes.length;
    const key = `${cx},${cy}`;
    (hash.get(key) ?? hash.set(key, []).get(key)).push(id);
    return id;
  };
  const all = [...ways, ...freeWays];
  for (const w of all) w.vtx = w.pts.map((p) => nodeAt(p));
  // Crossings between crossable ways become shared nodes.
  const segs = [];
  all.forEach((w, wi) => {
    if (!w.cross) return;
    for (let k = 1; k < w.pts.length; k++) segs.push({ wi, k, a: w.pts[k - 1], b: w.pts[k] });
  });
  const inserts = all.map(() => []);
  const bucket = new Map();
  const B = 150;
  segs.forEach((s, si) => {
    const x0 = Math.floor(Math.min(s.a[0], s.b[0]) / B);
    const x1 = Math.floor(Math.max(s.a[0], s.b[0]) / B);
    const y0 = Math.floor(Math.min(s.a[1], s.b[1]) / B);
    const y1 = Math.floor(Math.max(s.a[1], s.b[1]) / B);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) (bucket.get(`${x},${y}`) ?? bucket.set(`${x},${y}`, []).get(`${x},${y}`)).push(si);
  });
  const done = new Set();
  for (const list of bucket.values()) {
    for (let m = 0; m < list.length; m++) {
      for (let q = m + 1; q < list.length; q++) {
        const s1 = segs[list[m]];
        const s2 = segs[list[q]];
        if (s1.wi === s2.wi) continue;
        const pair = list[m] < list[q] ? `${list[m]}/${list[q]}` : `${list[q]}/${list[m]}`;
        if (done.has(pair)) continue;
        done.add(pair);
        const r = sub(s1.b, s1.a);
        const s = sub(s2.b, s2.a);
        const den = r[0] * s[1] - r[1] * s[0];
        if (Math.abs(den) < 1e-9) continue;
        const qp = sub(s2.a, s1.a);
        const t = (qp[0] * s[1] - qp[1] * s[0]) / den;
        const u = (qp[0] * r[1] - qp[1] * r[0]) / den;
        const e1 = 0.05 / len(r);
        const e2 = 0.05 / len(s);
        if (t < -e1 || t > 1 + e1 || u < -e2 || u > 1 + e2) continue;
        const id = nodeAt(add(s1.a, mul(r, t)));
        inserts[s1.wi].push([s1.k, t, id]);
        inserts[s2.wi].push([s2.k, u, id]);
      }
    }
  }
  // Tagged nodes: either a node of the ways (found by position) or a standalone node (stops).
  const tagged = new Map();
  for (const [p, tags, standalone] of nodeTags) {
    const id = standalone ? (nodes.push([p[0], p[1]]), nodes.length) : nodeAt(p);
    if (Object.keys(tags).length) tagged.set(id, tags);
  }
  const osmWays = [];
  all.forEach((w, wi) => {
    const ins = inserts[wi].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const ids = [w.vtx[0]];
    let p = 0;
    for (let k = 1; k < w.pts.length; k++) {
      while (p < ins.length && ins[p][0] === k) ids.push(ins[p++][2]);
      ids.push(w.vtx[k]);
    }
    const clean = ids.filter((id, k) => k === 0 || id !== ids[k - 1]);
    if (clean.length >= 2) osmWays.push({ ids: clean, tags: w.tags, src: w });
  });
  // Traffic signals where two main roads cross (at least three arms, two street names).
  const main = new Set(['primary', 'secondary']);
  const arms = new Map();
  const names = new Map();
  for (const w of osmWays) {
    if (!main.has(w.tags.highway) || w.tags.junction || w.tags.bridge) continue;
    w.ids.forEach((id, k) => {
      arms.set(id, (arms.get(id) ?? 0) + (k === 0 || k === w.ids.length - 1 ? 1 : 2));
      (names.get(id) ?? names.set(id, new Set()).get(id)).add(w.tags.name);
    });
  }
  for (const [id, c] of arms) if (c >= 3 && names.get(id).size >= 2 && !tagged.has(id)) tagged.set(id, { highway: 'traffic_signals' });
  // Keep only the nodes in use, numbered in order of first use.
  const used = new Map();
  const number = (id) => used.get(id) ?? (used.set(id, used.size + 1), used.size);
  for (const w of osmWays) w.ids = w.ids.map(number);
  const taggedOut = new Map();
  for (const [id, tags] of tagged) taggedOut.set(number(id), tags);
  const outNodes = [];
  for (const [old, id] of used) outNodes[id - 1] = nodes[old - 1];
  // A turn restriction at the town hall: no left turn from Avenue de la République into Cours Jean Jaurès.
  const from = osmWays.findIndex((w) => w.src === gridWayAt('-1,0', '0,0'));
  const to = osmWays.findIndex((w) => w.src === gridWayAt('0,0', '0,1'));
  const via = number(nodeAt(P(0, 0), false));
  const relations = [
    {
      members: [['way', from + 1, 'from'], ['node', via, 'via'], ['way', to + 1, 'to']],
      tags: { type: 'restriction', restriction: 'no_left_turn' },
    },
  ];
  return { nodes: outNodes, tagged: taggedOut, ways: osmWays, relations };
}

const xmlEscape = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const TIMESTAMP = '2026-01-01T00:00:00Z';

function osmXml(osm) {
  const out = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push('<osm version="0.6" generator="Navette demo generator (data/demo/generate.mjs)">');
  out.push('  <bounds minlat="45.7000000" minlon="4.8000000" maxlat="45.7800000" maxlon="4.9000000"/>');
  const tagLines = (tags) => Object.entries(tags).map(([k, v]) => `    <tag k="${xmlEscape(k)}" v="${xmlEscape(v)}"/>`);
  osm.nodes.forEach((p, k) => {
    const id = k + 1;
    const head = `  <node id="${id}" version="1" timestamp="${TIMESTAMP}" lat="${latOf(p[1]).toFixed(7)}" lon="${lonOf(p[0]).toFixed(7)}"`;
    const tags = osm.tagged.get(id);
    if (!tags) out.push(`${head}/>`);
    else out.push(`${head}>`, ...tagLines(tags), '  </node>');
  });
  osm.ways.forEach((w, k) => {
    out.push(`  <way id="${k + 1}" version="1" timestamp="${TIMESTAMP}">`);
    for (const id of w.ids) out.push(`    <nd ref="${id}"/>`);
    out.push(...tagLines(w.tags), '  </way>');
  });
  osm.relations.forEach((r, k) => {
    out.push(`  <relation id="${k + 1}" version="1" timestamp="${TIMESTAMP}">`);
    for (const [type, ref, role] of r.members) out.push(`    <member type="${type}" ref="${ref}" role="${role}"/>`);
    out.push(...tagLines(r.tags), '  </relation>');
  });
  out.push('</osm>');
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Calendar
// ---------------------------------------------------------------------------------------------

const ymd = (d) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
const day = (y, m, d) => new Date(Date.UTC(y, m - 1, d));
const plusDays = (d, n) => new Date(d.getTime() + n * 86_400_000);
function easter(y) {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dayOfMonth = ((h + l - 7 * m + 114) % 31) + 1;
  return day(y, month, dayOfMonth);
}
function holidays(y) {
  const e = easter(y);
  return [
    [day(y, 1, 1), "Jour de l'an"],
    [plusDays(e, 1), 'Lundi de Pâques'],
    [day(y, 5, 1), 'Fête du Travail'],
    [day(y, 5, 8), 'Victoire 1945'],
    [plusDays(e, 39), 'Ascension'],
    [plusDays(e, 50), 'Lundi de Pentecôte'],
    [day(y, 7, 14), 'Fête nationale'],
    [day(y, 8, 15), 'Assomption'],
    [day(y, 11, 1), 'Toussaint'],
    [day(y, 11, 11), 'Armistice 1918'],
    [day(y, 12, 25), 'Noël'],
  ];
}
/** Festival nights: extra late trams (a service defined only in calendar_dates.txt). */
const EVENT_DATES = ['20260621', '20260713', '20261231', '20270621', '20270713', '20271231'];

// ---------------------------------------------------------------------------------------------
// Transit: timetables
// ---------------------------------------------------------------------------------------------

const hhmmss = (sec) => `${String(Math.floor(sec / 3600)).padStart(2, '0')}:${String(Math.floor(sec / 60) % 60).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}`;
const hhmm = (sec) => `${String(Math.floor(sec / 3600)).padStart(2, '0')}${String(Math.floor(sec / 60) % 60).padStart(2, '0')}`;
const T = (s) => {
  const [h, m] = s.split(':').map(Number);
  return h * 3600 + m * 60;
};
/** Departures from bands [start, end, headway minutes]; each band continues from the previous one. */
function departures(bands) {
  const out = [];
  let t = T(bands[0][0]);
  for (const [, end, headway] of bands) {
    for (; t <= T(end); t += headway * 60) out.push(t);
  }
  return out;
}
const SUFFIX = { weekday: '', saturday: '-sat', sunday: '-sun', event: '-event' };
const SHORT = { weekday: 'wk', saturday: 'sa', sunday: 'su' };
const isPeak = (service, t) => service === 'weekday' && ((t >= T('07:00') && t < T('09:00')) || (t >= T('16:30') && t < T('19:00')));

const ROUTES = [
  { id: 'T1', agency: 'VTM', short: 'T1', long: 'Les Coteaux - Hôpital Sud', desc: 'Tramway, toutes les 10 minutes en journée', type: 0, color: 'E2001A', text: 'FFFFFF', order: 1 },
  { id: '2', agency: 'VTM', short: '2', long: "Les Tuileries - Parc d'Activités Est", desc: 'Par Hôtel de Ville', type: 3, color: '0072BC', text: 'FFFFFF', order: 2 },
  { id: '5', agency: 'VTM', short: '5', long: 'Valmont Gare - Campus des Crêts', desc: 'Par Parc des Tilleuls', type: 3, color: '00A651', text: 'FFFFFF', order: 3 },
  { id: '12', agency: 'VTM', short: '12', long: 'Valmont Gare - Bellevue', desc: '', type: 3, color: 'F7A600', text: '000000', order: 4 },
  { id: 'N1', agency: 'VTM', short: 'N1', long: 'Valmont Gare - Les Hauts de Valmont', desc: 'Bus de nuit', type: 3, color: '1B1B3A', text: 'FFD200', order: 5 },
  { id: 'NAV', agency: 'VTM', short: 'NAV', long: 'Navette Gare - Place du Marché', desc: 'Minibus électrique, toutes les 10 minutes', type: 3, color: '8E44AD', text: 'FFFFFF', order: 6 },
  { id: 'TAD', agency: 'VTM', short: 'TAD', long: 'Transport à la demande des Hameaux', desc: 'Sur réservation au 04 65 71 00 20', type: 715, color: '7F8C8D', text: 'FFFFFF', order: 7 },
  { id: 'TER-A', agency: 'TER', short: 'TER', long: 'La Croix-Blanche - Valmont Gare - Montverdun', desc: 'Trains régionaux', type: 2, color: '0B5CAD', text: 'FFFFFF', order: 8 },
];

const trips = [];
const stopTimes = [];
const frequencies = [];
const shapes = [];

/** Stop sequence and cumulative distances of a street line in one direction. */
function lineDirection(line, dir) {
  const { nodes, cum, stops: list } = lineStops[line];
  const total = cum[cum.length - 1];
  const seq = list.map(({ id, k }) => ({ id, d: cum[k] }));
  if (dir === 0) return { seq, nodes };
  return { seq: seq.reverse().map((s) => ({ id: s.id, d: total - s.d })), nodes: [...nodes].reverse() };
}
function addShape(id, pts) {
  let d = 0;
  pts.forEach((p, k) => {
    if (k > 0) d += dist(pts[k - 1], p);
    shapes.push([id, latOf(p[1]).toFixed(6), lonOf(p[0]).toFixed(6), k + 1, d.toFixed(1)]);
  });
}

const SPEEDS = { T1: 5.6, 2: 5.0, 5: 5.2, 12: 5.5, N1: 7.0, NAV: 4.2, TAD: 7.5 };
const DWELL = { T1: 20, 2: 15, 5: 15, 12: 15, N1: 10, NAV: 20, TAD: 30 };
const HEADSIGN_STOP = (line, dir) => {
  const { seq } = lineDirection(line, dir);
  return stops.get(seq[seq.length - 1].id).name;
};

function streetTrips(line, service, dir, deps, opts = {}) {
  const { seq } = lineDirection(line, dir);
  const headsign = HEADSIGN_STOP(line, dir);
  const out = [];
  for (const dep of deps) {
    const id = `${line}-${dir}-${hhmm(dep)}${SUFFIX[service]}`;
    const factor = isPeak(service, dep) ? 1.15 : dep >= T('21:00') || dep < T('06:00') ? 0.9 : 1;
    const trip = { route: line, service, id, headsign, dir, shape: `${line}-${dir}`, ...opts.trip?.(dep, out.length) };
    trips.push(trip);
    out.push(trip);
    seq.forEach((s, k) => {
      const t = dep + Math.round(((s.d / SPEEDS[line]) * factor + k * DWELL[line]) / 60) * 60;
      stopTimes.push({ trip: id, arr: t, dep: t, stop: s.id, seq: k + 1, ...opts.stopTime?.(k, seq.length, dep, s) });
    });
  }
  return out;
}

/** Vehicle blocks: chain trips that start where (and after) an earlier trip ended. */
function assignBlocks(list, prefix, layover) {
  const ids = new Set(list.map((t) => t.id));
  const ends = new Map(); // trip id -> [last stop, arrival]
  for (const st of stopTimes) if (ids.has(st.trip)) ends.set(st.trip, [st.stop, st.arr]);
  const starts = new Map();
  for (let k = stopTimes.length - 1; k >= 0; k--) {
    const st = stopTimes[k];
    if (ends.has(st.trip)) starts.set(st.trip, [st.stop, st.dep]);
  }
  const free = []; // { block, stop, at }
  let n = 0;
  const sorted = [...list].sort((a, b) => starts.get(a.id)[1] - starts.get(b.id)[1] || a.id.localeCompare(b.id));
  const samePlace = (a, b) => a === b || (a.startsWith('GARE') && b.startsWith('GARE'));
  for (const t of sorted) {
    const [stop, dep] = starts.get(t.id);
    let v = free.findIndex((f) => samePlace(f.stop, stop) && f.at + layover <= dep);
    if (v < 0) free.push({ block: `${prefix}-${String(++n).padStart(2, '0')}`, stop: '', at: 0 }), (v = free.length - 1);
    t.block = free[v].block;
    const [endStop, arr] = ends.get(t.id);
    free[v].stop = endStop;
    free[v].at = arr;
  }
}

function buildTimetables() {
  // Shapes of the street lines.
  for (const line of ['T1', '2', '5', '12', 'N1', 'NAV']) {
    for (const dir of [0, 1]) addShape(`${line}-${dir}`, lineDirection(line, dir).nodes.map((n) => P(...n)));
  }

  // Tram T1: every 10 minutes in the daytime on weekdays, 12 on Saturdays, 15 on Sundays.
  const t1 = {
    weekday: [['05:30', '06:30', 15], [null, '20:30', 10], [null, '21:30', 15], [null, '23:30', 20]],
    saturday: [['06:00', '08:00', 15], [null, '20:00', 12], [null, '23:30', 20]],
    sunday: [['07:00', '21:00', 15], [null, '23:30', 20]],
  };
  const beforeGare = (dir) => {
    const { seq } = lineDirection('T1', dir);
    return seq.findIndex((s) => s.id === 'GARE-T');
  };
  for (const [service, bands] of Object.entries(t1)) {
    const made = [];
    for (const dir of [0, 1]) {
      const deps = departures(bands).map((t) => t + dir * 300);
      made.push(
        ...streetTrips('T1', service, dir, deps, {
          trip: () => ({ wheelchair: 1, bikes: 2 }),
          stopTime: (k) => (dir === 0 && k < beforeGare(0) ? { headsign: 'Hôpital Sud par Gare' } : {}),
        }),
      );
    }
    assignBlocks(made, `T1-${SHORT[service]}`, 240);
  }
  // Festival nights: late trams (service only in calendar_dates.txt).
  for (const dir of [0, 1]) streetTrips('T1', 'event', dir, [T('23:50'), T('24:20'), T('24:50'), T('25:20')].map((t) => t + dir * 300), { trip: () => ({ wheelchair: 1, bikes: 2 }) });

  // Buses 2, 5 and 12: every 20 minutes at peak hours, 30 otherwise.
  const bus = {
    2: {
      weekday: [['05:40', '07:00', 30], [null, '09:00', 20], [null, '16:30', 30], [null, '19:00', 20], [null, '23:20', 30]],
      saturday: [['06:30', '23:00', 30]],
      sunday: [['07:30', '22:30', 30]],
    },
    5: {
      weekday: [['05:50', '07:00', 30], [null, '09:00', 20], [null, '16:30', 30], [null, '19:00', 20], [null, '22:50', 30]],
      saturday: [['07:00', '21:00', 30]],
      sunday: [['08:00', '21:00', 60]],
    },
    12: {
      weekday: [['06:05', '20:35', 30]],
      saturday: [['07:35', '19:35', 30]],
    },
  };
  for (const [line, services] of Object.entries(bus)) {
    for (const [service, bands] of Object.entries(services)) {
      const made = [];
      for (const dir of [0, 1]) {
        const deps = departures(bands).map((t) => t + dir * 600);
        made.push(
          ...streetTrips(line, service, dir, deps, {
            trip: (dep, n) =>
              line === '2'
                ? { wheelchair: 1 }
                : line === '5'
                  ? { wheelchair: 1, bikes: 2 }
                  : { wheelchair: n % 4 === 3 ? 2 : 1, bikes: 1 },
          }),
        );
      }
      if (line === '5') assignBlocks(made, `B5-${SHORT[service]}`, 300);
    }
  }

  // Night bus N1: past midnight, times after 24:00 belong to the evening's service day.
  const n1 = { weekday: ['23:45', '24:15', '24:45', '25:15', '25:45'], saturday: ['23:45', '24:15', '24:35', '25:10', '25:45', '26:20', '26:55', '27:30'] };
  for (const [service, list] of Object.entries(n1)) {
    for (const dir of [0, 1]) streetTrips('N1', service, dir, list.map((t) => T(t) + dir * 900), { trip: () => ({ wheelchair: 1 }) });
  }

  // Shuttle NAV: one template trip per direction and day type, run by frequencies.txt.
  const nav = { weekday: ['07:00', '20:00', 600, 0], saturday: ['09:00', '19:00', 900, 1] };
  for (const [service, [start, end, headway, exact]] of Object.entries(nav)) {
    for (const dir of [0, 1]) {
      const [trip] = streetTrips('NAV', service, dir, [T(start) + dir * 300], { trip: () => ({ wheelchair: 2 }) });
      frequencies.push([trip.id, hhmmss(T(start) + dir * 300), hhmmss(T(end) + dir * 300), headway, exact]);
    }
  }

  // On-demand bus TAD: runs only when booked; hamlet stops are phone-booked (pickup/drop-off 2).
  const tad = {
    weekday: [['06:40', '08:10', '10:10', '12:10', '14:10', '16:40', '18:10'], ['07:25', '09:10', '11:10', '13:10', '15:10', '17:25', '18:55']],
    saturday: [['09:10', '13:10', '17:10'], ['10:10', '14:10', '18:10']],
  };
  for (const [service, [out0, out1]] of Object.entries(tad)) {
    for (const dir of [0, 1]) {
      streetTrips('TAD', service, dir, (dir === 0 ? out0 : out1).map(T), {
        trip: () => ({ wheelchair: 1 }),
        stopTime: (k, n, dep) => {
          const rule = dep < T('09:00') ? 'tad_veille' : 'tad_1h';
          const hub = (dir === 0 && k === 0) || (dir === 1 && k === n - 1);
          if (hub) return dir === 0 ? { pickup: 0, dropOff: 1 } : { pickup: 1, dropOff: 0 };
          return { pickup: 2, dropOff: 2, pickupRule: rule, dropOffRule: rule };
        },
      });
    }
  }

  // Regional train: all-stops trains leave the minor stations untimed off-peak (interpolated from
  // shape_dist_traveled); peak-hour expresses skip them.
  addShape('TER-A-0', railPts);
  addShape('TER-A-1', [...railPts].reverse());
  const total = railCum[railCum.length - 1];
  const ter = {
    weekday: [
      ['05:52', '06:22', '06:52x', '07:22', '07:52x', '08:22', '09:22', '10:22', '11:22', '12:22', '13:22', '14:22', '15:22', '16:22', '16:52x', '17:22', '17:52x', '18:22', '18:52', '19:22', '20:22', '21:22', '22:22'],
      ['06:05', '06:35x', '07:05', '07:35x', '08:05', '09:05', '10:05', '11:05', '12:05', '13:05', '14:05', '15:05', '16:05', '16:35x', '17:05', '17:35x', '18:05', '18:35', '19:05', '20:05', '21:05', '22:05'],
    ],
    saturday: [
      ['07:22', '08:22', '09:22', '10:22', '11:22', '12:22', '13:22', '14:22', '15:22', '16:22', '17:22', '18:22', '19:22', '20:22', '21:22'],
      ['07:05', '08:05', '09:05', '10:05', '11:05', '12:05', '13:05', '14:05', '15:05', '16:05', '17:05', '18:05', '19:05', '20:05', '21:05'],
    ],
    sunday: [['08:22', '10:22', '12:22', '14:22', '16:22', '18:22', '20:22'], ['08:05', '10:05', '12:05', '14:05', '16:05', '18:05', '20:05']],
  };
  const numberBase = { weekday: 895100, saturday: 895300, sunday: 895500 };
  for (const [service, byDir] of Object.entries(ter)) {
    const made = [];
    for (const dir of [0, 1]) {
      byDir[dir].forEach((label, n) => {
        const express = label.endsWith('x');
        const dep = T(label.replace('x', ''));
        const id = `TER-A-${dir}-${hhmm(dep)}${SUFFIX[service]}`;
        const stations = dir === 0 ? RAIL_STATIONS.map((s, k) => ({ ...s, d: railCum[railStationIndex[k]] })) : [...RAIL_STATIONS].reverse().map((s, k) => ({ ...s, d: total - railCum[railStationIndex[RAIL_STATIONS.length - 1 - k]] }));
        const calls = express ? stations.filter((s) => s.id === 'GARE' || s === stations[0] || s === stations[stations.length - 1]) : stations;
        const last = calls[calls.length - 1];
        const trip = {
          route: 'TER-A', service, id, headsign: stops.get(last.id).name, short: String(numberBase[service] + 2 * n + (dir === 0 ? 1 : 0)), dir, shape: `TER-A-${dir}`, wheelchair: 1, bikes: 1,
        };
        trips.push(trip);
        made.push(trip);
        const untimed = !express && !isPeak(service, dep);
        let t = dep;
        let prevD = 0;
        calls.forEach((s, k) => {
          if (k > 0) t += Math.round(((s.d - prevD) / 17 + 45) / 60) * 60;
          prevD = s.d;
          const isGare = s.id === 'GARE';
          const stop = isGare ? (dir === 0 ? 'GARE-1' : 'GARE-2') : s.id;
          const arr = t;
          if (isGare && k > 0 && k < calls.length - 1) t += 120;
          const minor = !isGare && k > 0 && k < calls.length - 1;
          stopTimes.push({
            trip: id,
            arr: untimed && minor ? null : arr,
            dep: untimed && minor ? null : t,
            stop,
            seq: (k + 1) * 10,
            pickup: k === calls.length - 1 ? 1 : 0,
            dropOff: k === 0 ? 1 : 0,
            dist: s.d.toFixed(1),
            timepoint: untimed && minor ? 0 : 1,
          });
        });
      });
    }
    assignBlocks(made, `TER-${SHORT[service]}`, 480);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

function csv(header, rows) {
  const cell = (v) => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n';
}

function writeGtfs(dir) {
  const files = {};
  files['agency.txt'] = csv(['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone', 'agency_fare_url', 'agency_email'], [
    ['VTM', 'Valmont Transports Métropolitains', 'https://www.vtm-valmont.example', 'Europe/Paris', 'fr', '04 65 71 00 10', 'https://www.vtm-valmont.example/tarifs', 'contact@vtm-valmont.example'],
    ['TER', 'TER Vallée des Monts', 'https://ter-valleedesmonts.example', 'Europe/Paris', 'fr', '04 65 71 00 30', '', ''],
  ]);
  files['feed_info.txt'] = csv(['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'feed_start_date', 'feed_end_date', 'feed_version', 'feed_contact_email'], [
    ['Valmont Open Data', 'https://data.valmont.example', 'fr', '20260101', '20281231', '2026.1-demo', 'opendata@valmont.example'],
  ]);
  const stopRows = [];
  for (const s of stops.values()) {
    stopRows.push([s.id, s.code ?? '', s.name, latOf(s.pt[1]).toFixed(6), lonOf(s.pt[0]).toFixed(6), s.type, s.parent ?? '', s.wheelchair || '', s.platform ?? '']);
  }
  files['stops.txt'] = csv(['stop_id', 'stop_code', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station', 'wheelchair_boarding', 'platform_code'], stopRows);
  files['routes.txt'] = csv(['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_desc', 'route_type', 'route_url', 'route_color', 'route_text_color', 'route_sort_order'],
    ROUTES.map((r) => [r.id, r.agency, r.short, r.long, r.desc, r.type, r.agency === 'VTM' ? `https://www.vtm-valmont.example/lignes/${r.id.toLowerCase()}` : 'https://ter-valleedesmonts.example/ligne-a', r.color, r.text, r.order]));
  // Calendars.
  files['calendar.txt'] = csv(['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'], [
    ['weekday', 1, 1, 1, 1, 1, 0, 0, '20260101', '20281231'],
    ['saturday', 0, 0, 0, 0, 0, 1, 0, '20260101', '20281231'],
    ['sunday', 0, 0, 0, 0, 0, 0, 1, '20260101', '20281231'],
  ]);
  const exceptions = [];
  for (const y of [2026, 2027, 2028]) {
    for (const [d] of holidays(y).sort((a, b) => a[0] - b[0])) {
      const wd = d.getUTCDay(); // 0 Sunday
      if (wd === 0) continue;
      exceptions.push([wd === 6 ? 'saturday' : 'weekday', ymd(d), 2]);
      exceptions.push(['sunday', ymd(d), 1]);
    }
  }
  for (const d of EVENT_DATES) exceptions.push(['event', d, 1]);
  files['calendar_dates.txt'] = csv(['service_id', 'date', 'exception_type'], exceptions);
  files['trips.txt'] = csv(['route_id', 'service_id', 'trip_id', 'trip_headsign', 'trip_short_name', 'direction_id', 'block_id', 'shape_id', 'wheelchair_accessible', 'bikes_allowed'],
    trips.map((t) => [t.route, t.service, t.id, t.headsign, t.short ?? '', t.dir, t.block ?? '', t.route === 'TAD' ? '' : t.shape, t.wheelchair ?? '', t.bikes ?? '']));
  files['stop_times.txt'] = csv(['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence', 'stop_headsign', 'pickup_type', 'drop_off_type', 'shape_dist_traveled', 'timepoint', 'pickup_booking_rule_id', 'drop_off_booking_rule_id'],
    stopTimes.map((s) => [s.trip, s.arr === null ? '' : hhmmss(s.arr), s.dep === null ? '' : hhmmss(s.dep), s.stop, s.seq, s.headsign ?? '', s.pickup ?? '', s.dropOff ?? '', s.dist ?? '', s.timepoint ?? '', s.pickupRule ?? '', s.dropOffRule ?? '']));
  files['frequencies.txt'] = csv(['trip_id', 'start_time', 'end_time', 'headway_secs', 'exact_times'], frequencies);
  files['shapes.txt'] = csv(['shape_id', 'shape_pt_lat', 'shape_pt_lon', 'shape_pt_sequence', 'shape_dist_traveled'], shapes);
  files['booking_rules.txt'] = csv(['booking_rule_id', 'booking_type', 'prior_notice_duration_min', 'prior_notice_last_day', 'prior_notice_last_time', 'message', 'phone_number', 'info_url'], [
    ['tad_1h', 1, 60, '', '', 'Réservez au plus tard une heure avant le passage, par téléphone ou en ligne.', '04 65 71 00 20', 'https://www.vtm-valmont.example/tad'],
    ['tad_veille', 2, '', 1, '18:00:00', 'Premiers départs : réservez la veille avant 18 h.', '04 65 71 00 20', 'https://www.vtm-valmont.example/tad'],
  ]);
  const hdv = stopAt.get('0,0');
  files['transfers.txt'] = csv(['from_stop_id', 'to_stop_id', 'from_route_id', 'to_route_id', 'transfer_type', 'min_transfer_time'], [
    ['GARE', 'GARE', '', '', 2, 240],
    ['GARE-1', 'GARE-T', '', '', 2, 180],
    ['GARE-2', 'GARE-T', '', '', 2, 180],
    ['GARE-T', 'GARE-1', '', '', 2, 300],
    ['GARE-T', 'GARE-2', '', '', 2, 300],
    ['GARE-A', 'GARE-B', '', '', 2, 120],
    [hdv, hdv, '', '', 1, ''],
    [hdv, hdv, 'T1', '2', 0, ''],
  ]);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

// ---------------------------------------------------------------------------------------------
// A scenario of the town (docs/scenarios.md): a new bus line through a new stop, a faster line 2,
// line 12 withdrawn.

const WEEKDAYS = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false };
const PLAN_2030 = {
  name: 'Plan 2030',
  description: 'Ligne 7 from Valmont Gare to Hôpital Sud through a new stop, Les Jardins; line 2 25 % faster; line 12 withdrawn.',
  modifications: [
    {
      type: 'add-trips',
      name: 'Ligne 7',
      stops: [{ id: 'GARE-A' }, { lat: 45.7265, lon: 4.8515, name: 'Les Jardins' }, { id: 'HOPITAL-SUD' }],
      frequencies: [{ startTime: 6 * 3600, endTime: 21 * 3600, headwaySecs: 600, hopTimes: [240, 240], dwellTimes: [0, 20, 0], ...WEEKDAYS }],
      mode: 3,
      bidirectional: true,
    },
    { type: 'adjust-speed', routes: ['2'], scale: 1.25 },
    { type: 'remove-trips', routes: ['12'] },
  ],
};

// ---------------------------------------------------------------------------------------------

const osm = buildOsm();
buildTimetables();
writeGtfs(join(HERE, 'gtfs'));
writeFileSync(join(HERE, 'valmont.osm'), osmXml(osm));
mkdirSync(join(HERE, 'scenarios'), { recursive: true });
writeFileSync(join(HERE, 'scenarios', 'plan2030.json'), JSON.stringify(PLAN_2030, null, 2) + '\n');
writeFileSync(
  join(HERE, 'navette.json'),
  JSON.stringify({ coverages: [{ id: 'demo', gtfs: ['gtfs'], osm: 'valmont.osm', timezone: 'Europe/Paris', scenarios: { plan2030: 'scenarios/plan2030.json' } }] }) + '\n',
);

const streetStops = [...stops.values()].filter((s) => s.type === 0).length;
process.stdout.write(
  `Valmont: ${stops.size} stops (${streetStops} stop points), ${ROUTES.length} routes, ${trips.length} trips, ${stopTimes.length} stop times, ` +
    `${shapes.length} shape points; OSM ${osm.nodes.length} nodes, ${osm.ways.length} ways, ${osm.relations.length} relation\n`,
);
