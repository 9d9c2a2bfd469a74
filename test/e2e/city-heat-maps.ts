/**
 * A city's coverage served as the server serves it (test/helpers/app.ts: registry, loadCoverage, the
 * app; heat maps on the worker pool, as in test/e2e/heat-map-fidelity.ts), and its heat maps read
 * into the fidelity suite's `Grid`.
 */
import { HeatMapPool } from '../../src/maps/heat-map-pool.js';
import { DEFAULT_LIMITS } from '../../src/service/limits.js';
import { serveCoverages, type ServedApp } from '../helpers/app.js';
import { gridOfMatrix, type Grid, type HeatMatrix } from './heat-map-fidelity.js';
import type { City } from './street-check-settings.js';

/** A map may take long on a busy machine: the checks want answers, not the server's time budget. */
const BUDGET_MS = 300_000;

export class CityHeatMaps {
  private constructor(
    readonly city: City,
    private readonly served: ServedApp,
    private readonly pool: HeatMapPool,
  ) {}

  static async open(city: City, threads: number): Promise<CityHeatMaps> {
    const pool = new HeatMapPool({ ...DEFAULT_LIMITS, threads, budgetMs: BUDGET_MS });
    try {
      const served = await serveCoverages([{ id: city.id, gtfs: city.gtfs, osm: city.osm }], { app: { heatMaps: pool } });
      return new CityHeatMaps(city, served, pool);
    } catch (e) {
      await pool.close();
      throw e;
    }
  }

  /** The map of `query` (parameters without the coverage), its grid. */
  async heatMap(query: Record<string, string | number>): Promise<Grid> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const url = `/v1/coverage/${this.city.id}/heat_maps?${qs}`;
    const res = await this.served.app.inject({ method: 'GET', url });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return gridOfMatrix(JSON.parse(res.body).heat_maps[0].heat_matrix as HeatMatrix);
  }

  async close(): Promise<void> {
    await this.served.close();
    await this.pool.close();
  }
}
