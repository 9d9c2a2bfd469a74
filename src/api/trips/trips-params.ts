/** Query parameters of the eight trips operations and of the coverage endpoints (docs/api.md, Trips). */
import { depthParam, disableGeojsonParam, pageCount, START_PAGE } from '../params.js';
import type { Limits } from '../../service/limits.js';
import { FRESHNESS_LEVELS } from '../../ptref/freshness.js';
import { ODT_LEVEL_NAMES } from '../../model/timetable.js';
import { CURRENT_DATETIME, type ParamSpec } from '../../queries/param-table.js';

const FILTER = { name: 'filter', kind: 'string', description: 'A filter expression of the PT-referential language, for example line.code=1A.' } as const satisfies ParamSpec;

/** The table of the trips lists (`withFilter`) or of one trip. */
export function tripsParams(limits: Limits, withFilter: boolean) {
  const params = [
    START_PAGE,
    pageCount(limits.maxCount, 25, `Number of trips per page (at most ${limits.maxCount}).`),
    depthParam('Level of detail of the returned trips, 0 to 3: from 2 on, trips carry their headsign, route, line and modes, and from 3 on their geometry.'),
    { name: 'forbidden_id', kind: 'string', array: true, deprecated: true, description: 'Deprecated alias of forbidden_uris[].' },
    { name: 'forbidden_uris', kind: 'string', array: true, description: 'Ids of objects (lines, stop points, modes, networks, trips…) whose trips are left out.' },
    { name: 'external_code', kind: 'string', description: 'Only the trips with this external code (GTFS trip_id or trip_short_name).' },
    { name: 'headsign', kind: 'string', description: 'Only the trips with this headsign (the trip headsign or a stop headsign), exactly.' },
    { name: 'odt_level', kind: 'enum', values: ['all', ...ODT_LEVEL_NAMES], default: 'all', description: 'On-demand transport level of the trips: scheduled, with_stops (booking needed at stops), zonal, or all.' },
    { name: 'data_freshness', kind: 'enum', values: FRESHNESS_LEVELS, default: 'base_schedule', description: 'Which version of the data since and until look at: the base schedule, the schedule adapted to planned disruptions, or realtime.' },
    { name: 'distance', kind: 'int', default: 200, description: 'Radius in metres around a coordinate given in the path.' },
    { name: 'since', kind: 'datetime', description: 'Only the trips with a run whose first departure is at or after this time (local time of the coverage unless an offset is given).' },
    { name: 'until', kind: 'datetime', description: 'Only the trips with a run whose first departure is at or before this time.' },
    disableGeojsonParam('When true, no geometry is returned.'),
    { name: 'disable_disruption', kind: 'bool', default: false, description: 'When true, the disruptions list of the response is empty.' },
    { name: 'tags', kind: 'string', array: true, description: 'Only the trips impacted by a disruption that carries one of these tags.' },
    CURRENT_DATETIME,
  ] as const satisfies readonly ParamSpec[];
  return [...params, ...(withFilter ? [FILTER] : [])];
}

export const COVERAGE_PARAMS = [
  disableGeojsonParam('When true, the shape of the coverage is not returned.'),
  CURRENT_DATETIME,
] as const satisfies readonly ParamSpec[];
