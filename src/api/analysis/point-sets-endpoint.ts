/**
 * `/v1/coverage/{region}/point_sets` (Navette's own): the coverage's point sets, what
 * `opportunities[]`, `origins` and `destinations` name, with their columns and totals.
 */
import { inCoverage, type Endpoint } from '../endpoint.js';
import type { TargetOf } from '../targets.js';
import { contextJson } from '../serialize.js';

export const pointSetsEndpoint: Endpoint<TargetOf<'point_sets'>> = {
  params: () => [],
  answer: (target, ctx) => {
    const nowSec = Math.floor(Date.now() / 1000);
    const envelopeOf = (_g: unknown, now: number, timeZone: string) => ({
      hasFilterKey: false,
      wrap: (errorJson: string) => `{"point_sets":[],"context":${contextJson(now, timeZone)},"error":${errorJson}}`,
    });
    return inCoverage(ctx, target.coverageRef, nowSec, envelopeOf, ({ generation, timeZone }) => {
      const sets = (generation.streets?.pointSets ?? []).map((set) => ({
        name: set.name,
        file: set.file,
        points: set.ids.length,
        unlinked_points: set.unlinked,
        columns: set.columns.map((c) => ({ name: c.name, total: c.total, opportunities: `${set.name}:${c.name}` })),
      }));
      return { body: `{"point_sets":${JSON.stringify(sets)},"context":${contextJson(nowSec, timeZone)}}` };
    });
  },
};
