/** `/v1/coverage`, `/v1/coverage/{region}`, `/v1/coverage/{lon};{lat}`: the coverages and their state. */
import { DEAD_REGION_ID, deadRegionMessage } from '../errors.js';
import type { Coverage } from '../../service/coverage-registry.js';
import { formatDayNumber, formatUtc } from '../../util/calendar.js';
import { cleanHref, type Link } from '../links.js';
import { REFERENTIAL_COLLECTIONS } from '../referential/referential-params.js';
import { parseParams } from '../params.js';
import { COVERAGE_PARAMS } from '../trips/trips-params.js';
import type { Endpoint } from '../endpoint.js';
import type { TargetOf } from '../targets.js';
import { resolveCoverage } from './coverage-resolution.js';
import { requestNow } from '../../queries/param-table.js';

/** A coverage answers with its state whatever it is (loading, dead): no generation is needed. */
export const coverageEndpoint: Endpoint<TargetOf<'coverage'>> = {
  params: () => COVERAGE_PARAMS,
  answer(target, ctx) {
    const params = parseParams(COVERAGE_PARAMS, target.info.pairs);
    const { coverageRef, info } = target;
    const coverages = coverageRef === undefined ? ctx.registry.list() : [resolveCoverage(ctx.registry, coverageRef)];
    return { body: coverageJson(coverages, coverageLinks(info.base, coverageRef?.text ?? '{regions.id}'), requestNow(params), params.disable_geojson) };
  },
};

/** The collections served, in Navitia's order of a coverage's links (trips last, as there). */
const COLLECTIONS = [...REFERENTIAL_COLLECTIONS, 'trips'];
/** The other endpoints served under a coverage. */
const OTHER_APIS = ['places', 'isochrones', 'heat_maps'];

/**
 * The templated links of a coverage answer; `r` is the region, `lon;lat`, or `{regions.id}`. Only
 * what is served: Navitia's links to endpoints we do not serve (journeys, departures, pt_objects…)
 * are left out, and a test requests every link advertised.
 */
export function coverageLinks(base: string, r: string): Link[] {
  const link = (href: string, name: string): Link => ({ href: cleanHref(href), templated: true, rel: name, type: name });
  const root = `${base}/v1/coverage/${r}`;
  return [
    ...COLLECTIONS.map((c) => link(`${root}/${c}`, c)),
    link(`${root}/`, 'coverage'),
    ...OTHER_APIS.map((a) => link(`${root}/${a}`, a)),
    link(`${root}/coord/{lon;lat}/places_nearby`, 'places_nearby'),
  ];
}

export function regionJson(c: Coverage, disableGeojson: boolean): Record<string, unknown> {
  const g = c.generation;
  const name = g ? g.publishers[0]?.name || g.tt.agencies[0]?.name || '' : '';
  const region: Record<string, unknown> = {
    id: c.id,
    name,
    status: c.status,
    start_production_date: g && g.productionStartDay >= 0 ? formatDayNumber(g.productionStartDay) : '',
    end_production_date: g && g.productionEndDay >= 0 ? formatDayNumber(g.productionEndDay) : '',
    last_load_at: g ? formatUtc(g.loadedAtSec) : 'not-a-date-time',
    dataset_created_at: g && g.datasetCreatedAtSec > 0 ? formatUtc(g.datasetCreatedAtSec) : 'not-a-date-time',
    shape: disableGeojson ? null : (g?.shapeWkt ?? ''),
  };
  if (c.status === 'dead') region['error'] = { code: DEAD_REGION_ID, value: deadRegionMessage(c.id) };
  // not in Navitia's region object (clients ignore it): the state of each realtime source
  if (c.realtime) region['realtime_sources'] = c.realtime.status();
  // likewise: the state of its disruptions file
  if (c.disruptionSource) region['disruptions_source'] = c.disruptionSource.status();
  return region;
}

/** The context of a coverage answer (the coverage list has no time zone of its own). */
export const coverageContext = (nowSec: number) => ({ current_datetime: formatUtc(nowSec), timezone: 'Africa/Abidjan' });

export function coverageJson(coverages: Coverage[], links: Link[], nowSec: number, disableGeojson: boolean): string {
  return JSON.stringify({
    regions: coverages.map((c) => regionJson(c, disableGeojson)),
    links,
    context: coverageContext(nowSec),
  });
}
