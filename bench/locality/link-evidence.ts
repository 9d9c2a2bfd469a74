/**
 * Why the city alone gets a cell better than the country (map-comparison.ts): where each coverage
 * links the cell to its streets and what its street search gives there. A cell links through its
 * layer's link lattice (model/link-lattice.ts), whose step grows on a vast extract (MAX_LATTICE_POINTS
 * points a layer: 30 m on a city, 120 m and more on a country), so the country may link a cell to
 * another street than its nearest, or skip it when none of its lattice candidates was reached. The
 * exact nearest street (the segment grid's search, `snapPoint`) tells the causes apart, in this order:
 *
 * - noCandidate: the country linked the cell to nothing its search reached (null whatever its link);
 * - fartherLink: the country linked it farther than its nearest street (its coarse lattice);
 * - cityFartherLink: the city linked it farther than its own nearest street (its 30 m lattice);
 * - tie: each links a street as near as its nearest, but not at the same place: two streets nearly
 *   as far from the cell, which each graph measures in its own projection (a city's equirectangular
 *   about its centre, a country's conformal) and breaks ties between by its own segment numbers;
 * - samePlace: both link the same place, so the search itself is slower there (as it is around a
 *   stop the country links to another street: `stopsLinkedElsewhere`).
 *
 * A cell is explained when the country, valued at the city's link place (on the same street of the
 * country's graph, matched by its ends' OpenStreetMap node ids), would be no slower than the city:
 * the difference is then all in where the cell was linked, none in the search.
 */
import { LINK_RADIUS_M, pointAlong, projectOnSegment, projectX, projectY, scaleAt, snapPoint, unprojectLat, unprojectLon, type StreetGraph } from '../../src/model/street-graph.js';
import { Layer } from '../../src/model/street-layers.js';
import type { Grid } from '../../src/routing/grid.js';
import type { CellLinkTable, Rasterizer } from '../../src/routing/raster.js';
import type { StreetSearch } from '../../src/routing/street-search.js';
import type { StopSnaps } from '../../src/model/stop-snaps.js';
import { planarMetres } from '../../src/util/geodesy.js';
import type { SuspectCells } from './map-comparison.js';
import { percentile } from './percentile.js';

/** One coverage's side: its graph, a rasterizer on it, and the street search of its last map (a walking map's one leg). */
export interface MapSide {
  graph: StreetGraph;
  rasterizer: Rasterizer;
  search: StreetSearch;
}

/** A link this much farther (metres) than the nearest street is to another street; two links closer than this are at the same place. */
const SAME_M = 0.5;
/** Tile 0's OpenStreetMap node ids lie under this (bench/country numbers tile t's from t × 1,000,000 + 1). */
const TILE_IDS = 1_000_000;

const CATEGORIES = ['noCandidate', 'fartherLink', 'cityFartherLink', 'tie', 'samePlace'] as const;
type Category = (typeof CATEGORIES)[number];

/** How a cell meets the streets on one side: its link (edge -1: none reached) and the distance to its nearest street. */
interface CellOnSide {
  edge: number;
  alongM: number;
  offsetM: number;
  nearestOffsetM: number;
}

export class LinkEvidence {
  /**
   * per category: the cells, those explained by where the country linked them, and of the others
   * the most the city gets one faster by (seconds; Infinity: null on the country) and the most the
   * country is slower at the city's link place (seconds)
   */
  readonly cells = Object.fromEntries(CATEGORIES.map((k) => [k, { all: 0, explained: 0, othersBySec: 0, thereBySec: 0 }])) as Record<Category, { all: number; explained: number; othersBySec: number; thereBySec: number }>;
  /** fartherLink: how much farther than its nearest street the country linked the cell, metres */
  readonly extraM: number[] = [];
  /** tie: how much farther the city's link place is from the cell than the country's link, as the country measures, metres */
  readonly tieM: number[] = [];
  /** per category, a cell described: the worst of those the linking does not explain, else the first */
  readonly examples: Partial<Record<Category, { text: string; explained: boolean; bySec: number }>> = {};
  private readonly cityTable: CellLinkTable;
  private readonly countryTable: CellLinkTable;
  /** the country's tile-0 edges by `edgeKey`, made on first use */
  private countryEdges: Map<number, number[]> | undefined;

  constructor(maxCells: number) {
    this.cityTable = linkTable(maxCells);
    this.countryTable = linkTable(maxCells);
  }

  /**
   * Explain one origin's suspect cells on `grid` (the city's map's), each side's search being its map's.
   * `walkSpeed`: the maps' walking speed (their only mode).
   */
  explain(grid: Grid, suspects: SuspectCells, city: MapSide, country: MapSide, cityMap: Int32Array, countryMap: Int32Array, walkSpeed: number): void {
    if (suspects.cityFaster.length + suspects.cityOnly.length === 0) return;
    city.rasterizer.linkCells(grid, Layer.Walk, this.cityTable, city.search);
    country.rasterizer.linkCells(grid, Layer.Walk, this.countryTable, country.search);
    const perMetre = 10 / walkSpeed;
    for (const c of [...suspects.cityOnly, ...suspects.cityFaster]) {
      const { lon, lat } = cellCentre(grid, c);
      const onCity = cellOnSide(city.graph, this.cityTable, c, lon, lat);
      const onCountry = cellOnSide(country.graph, this.countryTable, c, lon, lat);
      // the city's link place on the same street of the country's graph: how far from the cell, and the country's time there (tenths)
      const place = linkPlace(city.graph, onCity);
      const p = country.graph.projection;
      const x = projectX(p, place.lon);
      const y = projectY(p, place.lat);
      const offsetM = Math.hypot(x - projectX(p, lon), y - projectY(p, lat)) / scaleAt(p, y);
      this.countryEdges ??= tileEdges(country.graph);
      const twin = onTwin(country.graph, this.countryEdges, edgeKey(city.graph, onCity.edge), x, y);
      const countryThereDs = twin ? country.search.costAlong(twin.edge, twin.alongM, Layer.Walk, perMetre, false) + offsetM * perMetre : Infinity;
      let category: Category;
      if (onCountry.edge < 0) category = 'noCandidate';
      else if (onCountry.offsetM > onCountry.nearestOffsetM + SAME_M) {
        category = 'fartherLink';
        this.extraM.push(onCountry.offsetM - onCountry.nearestOffsetM);
      } else if (onCity.offsetM > onCity.nearestOffsetM + SAME_M) category = 'cityFartherLink';
      else if (placesApartM(place, linkPlace(country.graph, onCountry)) < SAME_M) category = 'samePlace';
      else {
        category = 'tie';
        this.tieM.push(offsetM - onCountry.offsetM);
      }
      const counts = this.cells[category];
      counts.all++;
      // the city's whole second, its tenths unknown: the most it can be
      const explained = countryThereDs <= cityMap[c]! * 10 + 10;
      const bySec = countryMap[c]! < 0 ? Infinity : countryMap[c]! - cityMap[c]!;
      if (explained) counts.explained++;
      else {
        counts.othersBySec = Math.max(counts.othersBySec, bySec);
        counts.thereBySec = Math.max(counts.thereBySec, countryThereDs / 10 - cityMap[c]!);
      }
      // per category the first cell, until one the linking does not explain, then the worst of those
      const example = this.examples[category];
      if (example === undefined || (!explained && (example.explained || bySec > example.bySec))) {
        const s = (ds: number) => (Number.isFinite(ds) ? `${(ds / 10).toFixed(1)} s` : 'unreached');
        const text =
          `cell at ${lon.toFixed(5)};${lat.toFixed(5)}: city ${cityMap[c]} s, country ${countryMap[c]! < 0 ? 'null' : `${countryMap[c]} s`}; ` +
          `city linked ${onCity.offsetM.toFixed(1)} m off (nearest street ${onCity.nearestOffsetM.toFixed(1)} m), ` +
          `country ${onCountry.edge < 0 ? 'to no reached candidate' : `${onCountry.offsetM.toFixed(1)} m off`} (nearest street ${onCountry.nearestOffsetM.toFixed(1)} m); ` +
          `the country at the city's link place: ${s(countryThereDs)}`;
        this.examples[category] = { text, explained, bySec };
      }
    }
  }

  /** The suspect cells counted by cause, with how far the country's links strayed and how close the ties were. */
  summary(): string {
    const parts = CATEGORIES.map((k) => {
      const { all, explained, othersBySec, thereBySec } = this.cells[k];
      const by = Number.isFinite(othersBySec) ? `${othersBySec} s` : 'null';
      const there = Number.isFinite(thereBySec) ? `${thereBySec.toFixed(1)} s` : 'unreached';
      const others = all > explained ? `, the others by ${by} at most, at the city's link place by ${there}` : '';
      return `${k} ${all.toLocaleString('en-US')} (${explained.toLocaleString('en-US')} explained${others})`;
    });
    const metres = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} m, p99 ${percentile(values, 99).toFixed(1)} m`;
    const extra = this.extraM.length ? `; fartherLink by ${metres(this.extraM)}` : '';
    const tie = this.tieM.length ? `; ties within ${metres(this.tieM)}` : '';
    return parts.join(', ') + extra + tie;
  }
}

/**
 * The stops linked on foot to another street in the country than in the city (matched by
 * `edgeKey`): each graph takes its nearest street in its own projection, so a stop nearly as far
 * from two streets may link to either, and the country's maps then walk from there.
 * `stopInCountry[s]`: the country's number of the city's stop s.
 */
export function stopsLinkedElsewhere(city: { graph: StreetGraph; snaps: StopSnaps }, country: { graph: StreetGraph; snaps: StopSnaps }, stopInCountry: readonly number[]): { stop: number; cityOffsetM: number; countryOffsetM: number }[] {
  const moved = [];
  const cityEdges = city.snaps.edge[Layer.Walk]!;
  const countryEdges = country.snaps.edge[Layer.Walk]!;
  for (const [s, k] of stopInCountry.entries()) {
    const a = cityEdges[s]!;
    const b = countryEdges[k]!;
    if ((a < 0) !== (b < 0) || (a >= 0 && edgeKey(city.graph, a) !== edgeKey(country.graph, b))) {
      moved.push({ stop: s, cityOffsetM: city.snaps.offsetM[Layer.Walk]![s]!, countryOffsetM: country.snaps.offsetM[Layer.Walk]![k]! });
    }
  }
  return moved;
}

/**
 * Link the `moved` stops (`stopsLinkedElsewhere`) on foot as the city does, in the country's own
 * stop links: on the same street, at their nearest point of it as the country measures. Changed in
 * place (a copy of the data would need an engine of its own, whose scratch is gigabytes at Germany
 * size); returns what puts the country's links back. The country's maps computed in between tell
 * what those stops' links alone change.
 */
export function linkAsInCity(city: { graph: StreetGraph; snaps: StopSnaps }, country: { graph: StreetGraph; snaps: StopSnaps }, moved: readonly { stop: number }[], stopInCountry: readonly number[], stopLon: Float64Array, stopLat: Float64Array): () => void {
  const [edge, alongM, offsetM] = [country.snaps.edge[Layer.Walk]!, country.snaps.alongM[Layer.Walk]!, country.snaps.offsetM[Layer.Walk]!];
  const kept = moved.map(({ stop }) => {
    const k = stopInCountry[stop]!;
    return { k, edge: edge[k]!, alongM: alongM[k]!, offsetM: offsetM[k]! };
  });
  const edges = tileEdges(country.graph);
  const p = country.graph.projection;
  for (const { stop } of moved) {
    const k = stopInCountry[stop]!;
    const cityEdge = city.snaps.edge[Layer.Walk]![stop]!;
    const twin = cityEdge < 0 ? null : onTwin(country.graph, edges, edgeKey(city.graph, cityEdge), projectX(p, stopLon[k]!), projectY(p, stopLat[k]!));
    edge[k] = twin?.edge ?? -1;
    alongM[k] = twin?.alongM ?? 0;
    offsetM[k] = twin?.offsetM ?? 0;
  }
  return () => {
    for (const was of kept) [edge[was.k], alongM[was.k], offsetM[was.k]] = [was.edge, was.alongM, was.offsetM];
  };
}

/**
 * How far the cells of `grid` that `search` reached a candidate of are linked beyond their nearest
 * street, on one side: the cells linked, those linked more than SAME_M farther, and the p99 and
 * largest of the extra metres (on the linking itself, whatever the maps' values).
 */
export function linkingOf(side: MapSide, grid: Grid, table: CellLinkTable): { linked: number; farther: number; p99M: number; maxM: number } {
  side.rasterizer.linkCells(grid, Layer.Walk, table, side.search);
  const R = grid.resolution;
  const extra: number[] = [];
  let linked = 0;
  for (let c = 0; c < R * R; c++) {
    if (table.edge[c]! < 0) continue;
    linked++;
    const { lon, lat } = cellCentre(grid, c);
    const p = side.graph.projection;
    const nearest = snapPoint(side.graph, Layer.Walk, projectX(p, lon), projectY(p, lat), LINK_RADIUS_M);
    extra.push(table.offsetM[c]! - (nearest?.offsetM ?? Infinity));
  }
  const farther = extra.filter((m) => m > SAME_M);
  return { linked, farther: farther.length, p99M: percentile(extra, 99), maxM: extra.length ? extra.reduce((a, b) => Math.max(a, b)) : NaN };
}

export function linkTable(cells: number): CellLinkTable {
  return { edge: new Int32Array(cells), alongM: new Float64Array(cells), offsetM: new Float64Array(cells) };
}

/** The centre of cell c (i * R + j), degrees: the rasterizer's, whose rows are even bands of latitude. */
function cellCentre(grid: Grid, c: number): { lon: number; lat: number } {
  const R = grid.resolution;
  const i = Math.floor(c / R);
  const j = c % R;
  return { lon: grid.minLon + ((i + 0.5) * (grid.maxLon - grid.minLon)) / R, lat: grid.minLat + ((j + 0.5) * (grid.maxLat - grid.minLat)) / R };
}

function cellOnSide(graph: StreetGraph, table: CellLinkTable, c: number, lon: number, lat: number): CellOnSide {
  const p = graph.projection;
  const nearest = snapPoint(graph, Layer.Walk, projectX(p, lon), projectY(p, lat), LINK_RADIUS_M);
  return { edge: table.edge[c]!, alongM: table.alongM[c]!, offsetM: table.offsetM[c]!, nearestOffsetM: nearest?.offsetM ?? Infinity };
}

/** Where a link lies, degrees. */
function linkPlace(graph: StreetGraph, link: CellOnSide): { lon: number; lat: number } {
  const { x, y } = pointAlong(graph, link.edge, link.alongM);
  return { lon: unprojectLon(graph.projection, x), lat: unprojectLat(graph.projection, y) };
}

/** A tile-0 edge's ends' OpenStreetMap node ids as one number (bench/country keeps tile 0's ids, under a million), -1 for another tile's. */
function edgeKey(g: StreetGraph, e: number): number {
  const from = g.vertexNodeId[g.edgeFrom[e]!]!;
  const to = g.vertexNodeId[g.edgeTo[e]!]!;
  return from > 0 && from < TILE_IDS && to > 0 && to < TILE_IDS ? from * TILE_IDS + to : -1;
}

/** The tile-0 edges of a graph by `edgeKey` (two ways may join the same two nodes). */
function tileEdges(g: StreetGraph): Map<number, number[]> {
  const edges = new Map<number, number[]>();
  for (let e = 0; e < g.edgeCount; e++) {
    const key = edgeKey(g, e);
    if (key < 0) continue;
    const same = edges.get(key);
    if (same) same.push(e);
    else edges.set(key, [e]);
  }
  return edges;
}

/**
 * The point nearest to (x, y) of the edges of `key` (`tileEdges`): the edge, how far along it, how
 * far off (an edge's segments are numbered geomOffset[e] − e onwards, one fewer than its points).
 */
function onTwin(g: StreetGraph, edges: Map<number, number[]>, key: number, x: number, y: number): { edge: number; alongM: number; offsetM: number } | null {
  let best: { edge: number; alongM: number; offsetM: number } | null = null;
  for (const e of edges.get(key) ?? []) {
    for (let s = g.geomOffset[e]! - e; s < g.geomOffset[e + 1]! - e - 1; s++) {
      const { dist2, alongM } = projectOnSegment(g, s, x, y);
      const offsetM = Math.sqrt(dist2) / scaleAt(g.projection, y);
      if (!best || offsetM < best.offsetM) best = { edge: e, alongM, offsetM };
    }
  }
  return best;
}

function placesApartM(a: { lon: number; lat: number }, b: { lon: number; lat: number }): number {
  return planarMetres(a.lon, a.lat, b.lon, b.lat);
}
