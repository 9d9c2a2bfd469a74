/**
 * The GTFS oracle of scenarios, on a real city: each scenario written into a copy of the feed by a
 * writer that shares no code with the scenario code (test/oracles/scenario-gtfs/), the copy loaded as
 * a coverage of its own beside the city with its scenarios, and the answers of both compared:
 * heat maps cell by cell (within 60 s for at least 99 % of the cells, both unreached agreeing),
 * windowed percentiles, and accessibility from places, which must be equal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { getOk, serveCoverages, type ServedApp } from '../helpers/app.js';
import { writeScenarioFeed, type WriteReport } from '../oracles/scenario-gtfs/index.js';
import type { CoverageConfig } from '../../src/service/coverage-config.js';

export interface OracleCity {
  id: string;
  gtfs: string[];
  /** which of `gtfs` the scenarios change (the others are loaded unchanged beside the copy) */
  changedFeed: number;
  /** the changed feed's key in the coverage, for the ids written `feed:id` */
  feedKey?: string;
  osm: string;
  timezone?: string;
  /** scenario name → its file */
  scenarios: Record<string, string>;
}

export interface OracleServed {
  served: ServedApp;
  /** scenario name → the coverage of its oracle feed */
  oracleOf: Record<string, string>;
  reports: Record<string, WriteReport>;
  close(): Promise<void>;
}

/** The city with its scenarios, and one coverage per scenario on its oracle feed. */
export async function serveWithOracles(city: OracleCity, pointSets: CoverageConfig['pointSets'] = []): Promise<OracleServed> {
  const configs: CoverageConfig[] = [
    { id: city.id, gtfs: city.gtfs, osm: city.osm, timezone: city.timezone, pointSets, scenarios: Object.entries(city.scenarios).map(([name, file]) => ({ name, path: file })) },
  ];
  const oracleOf: Record<string, string> = {};
  const reports: Record<string, WriteReport> = {};
  for (const [name, file] of Object.entries(city.scenarios)) {
    // the folder's name is the feed's key in the oracle's coverage, as the changed feed's is in the city's
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'navette-oracle-')), city.feedKey ?? 'gtfs');
    reports[name] = await writeScenarioFeed(city.gtfs[city.changedFeed]!, JSON.parse(readFileSync(file, 'utf8')), out, { scenarioName: name, feedKey: city.feedKey });
    const gtfs = city.gtfs.map((feed, k) => (k === city.changedFeed ? out : feed));
    oracleOf[name] = `${city.id}-${name}`;
    configs.push({ id: oracleOf[name], gtfs, osm: city.osm, timezone: city.timezone, pointSets });
  }
  const served = await serveCoverages(configs);
  return { served, oracleOf, reports, close: () => served.close() };
}

/** A heat map's cells by their south-west corner: seconds, null when unreached. */
export async function heatCells(app: FastifyInstance, url: string): Promise<Map<string, number | null>> {
  const body = await getOk(app, url);
  const matrix = body.heat_maps[0].heat_matrix;
  const cells = new Map<string, number | null>();
  for (const line of matrix.lines) {
    line.duration.forEach((sec: number | null, j: number) => {
      const lat = matrix.line_headers[j].cell_lat.min_lat;
      cells.set(`${line.cell_lon.min_lon.toFixed(6)};${lat.toFixed(6)}`, sec);
    });
  }
  return cells;
}

export interface HeatMapAgreement {
  cells: number;
  /** reached on both sides, and within 60 s */
  within60: number;
  /** reached on one side only */
  unreachedDisagree: number;
  /** largest difference, seconds, over the cells reached on both sides (scenario minus oracle) */
  maxAbove: number;
  maxBelow: number;
}

/** A heat map with the scenario against the same map on the oracle's coverage, cell by cell. */
export async function compareHeatMaps(app: FastifyInstance, city: string, oracle: string, scenario: string, query: string): Promise<HeatMapAgreement> {
  const ours = await heatCells(app, `/v1/coverage/${city}/heat_maps?${query}&scenario=${scenario}`);
  const theirs = await heatCells(app, `/v1/coverage/${oracle}/heat_maps?${query}`);
  assert.equal(ours.size, theirs.size, `${query}: the two maps' grids`);
  const agreement: HeatMapAgreement = { cells: 0, within60: 0, unreachedDisagree: 0, maxAbove: 0, maxBelow: 0 };
  for (const [cell, sec] of ours) {
    assert.ok(theirs.has(cell), `${query}: cell ${cell} only on the scenario's map`);
    const other = theirs.get(cell)!;
    agreement.cells++;
    if ((sec === null) !== (other === null)) {
      agreement.unreachedDisagree++;
      continue;
    }
    if (sec === null || other === null) {
      agreement.within60++;
      continue;
    }
    const d = sec - other;
    if (Math.abs(d) <= 60) agreement.within60++;
    agreement.maxAbove = Math.max(agreement.maxAbove, d);
    agreement.maxBelow = Math.min(agreement.maxBelow, d);
  }
  return agreement;
}

/** The same request's JSON on the city with the scenario and on the oracle, the context (its clock) left out. */
export async function bothAnswers(app: FastifyInstance, city: string, oracle: string, scenario: string, endpointAndQuery: string): Promise<[any, any]> {
  const ours = await getOk(app, `/v1/coverage/${city}/${endpointAndQuery}&scenario=${scenario}`);
  const theirs = await getOk(app, `/v1/coverage/${oracle}/${endpointAndQuery}`);
  delete ours.context;
  delete theirs.context;
  delete ours.feed_publishers;
  delete theirs.feed_publishers;
  return [ours, theirs];
}

/** A point set of `n × n` places on a lattice over a box (one opportunity each), written to a temporary CSV. */
export function latticePoints(name: string, box: { west: number; south: number; east: number; north: number }, n: number): { name: string; file: string } {
  const rows = ['id,lon,lat,places'];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const lon = box.west + ((box.east - box.west) * (i + 0.5)) / n;
      const lat = box.south + ((box.north - box.south) * (j + 0.5)) / n;
      rows.push(`p${i}_${j},${lon.toFixed(6)},${lat.toFixed(6)},1`);
    }
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-lattice-')), `${name}.csv`);
  writeFileSync(file, rows.join('\n') + '\n');
  return { name, file };
}
