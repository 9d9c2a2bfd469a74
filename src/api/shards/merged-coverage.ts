/**
 * `/v1/coverage` on a replica that holds some coverages only: the answer's template for nginx's SSI
 * module, its coverages inline and an include of each other coverage's region object (fetched by
 * nginx from its shard, see shard-routing.ts), in the order of the ids, as a single server lists them.
 * When a shard cannot answer, the include's stub lists that coverage as dead.
 */
import type { CoverageConfig } from '../../service/coverage-config.js';
import { Coverage } from '../../service/coverage-registry.js';
import { coverageContext, regionJson } from '../coverage/coverage-endpoint.js';
import type { Link } from '../links.js';
import { regionLocation } from './shard-routing.js';

export function mergedCoverageTemplate(held: Coverage[], elsewhere: CoverageConfig[], links: Link[], nowSec: number, disableGeojson: boolean, query: string): string {
  const entries: { id: string; text: string }[] = held.map((c) => ({ id: c.id, text: JSON.stringify(regionJson(c, disableGeojson)) }));
  const stubs: string[] = [];
  elsewhere.forEach((config, i) => {
    const dead = new Coverage(config);
    dead.status = 'dead';
    const block = `navette${i}`;
    // the stub's content is the region as a single server lists a coverage that does not answer
    stubs.push(`<!--# block name="${block}" -->${JSON.stringify(regionJson(dead, disableGeojson))}<!--# endblock -->`);
    const uri = `${regionLocation(config.id)}${query ? `?${query}` : ''}`;
    entries.push({ id: config.id, text: `<!--# include virtual="${uri.replace(/"/g, '%22')}" stub="${block}" -->` });
  });
  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const context = JSON.stringify(coverageContext(nowSec));
  return `${stubs.join('')}{"regions":[${entries.map((e) => e.text).join(',')}],"links":${JSON.stringify(links)},"context":${context}}`;
}
