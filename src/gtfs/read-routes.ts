/** routes.txt: the lines, with their agency and their physical and commercial modes. */
import { readTable } from './read-table.js';
import { modeOfRouteType } from './route-types.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readRoutes(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed, ids } = f;
  const file = f.file('routes.txt');
  const onBytes = f.on('routes.txt');
  await readTable(
    source,
    {
      file: 'routes.txt',
      columns: ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type', 'route_color', 'route_text_color'] as const,
      required: ['route_id', 'route_type'] as const,
    },
    (row, c) => {
      const localId = row.text(c.route_id);
      if (!localId || ids.lines.has(localId)) {
        draft.report.problem(file, row.line, localId ? 'duplicate route_id, row skipped' : 'empty route_id, row skipped', localId);
        return;
      }
      const agencyKey = row.text(c.agency_id);
      let agency = ids.agencies.get(agencyKey);
      if (agency === undefined && ids.agencies.size === 1 + (ids.agencies.has('') ? 1 : 0)) agency = ids.agencies.values().next().value;
      if (agency === undefined) {
        draft.report.problem(file, row.line, 'unknown agency_id, row skipped', agencyKey);
        return;
      }
      const routeType = row.int(c.route_type, -1);
      const mode = modeOfRouteType(routeType);
      if (!mode) {
        draft.report.problem(file, row.line, 'unknown route_type, row skipped', row.text(c.route_type));
        return;
      }
      const code = row.text(c.route_short_name);
      ids.lines.set(localId, draft.lines.length);
      draft.lines.push({
        id: draft.uniqueId('line', localId, feed),
        code,
        name: row.text(c.route_long_name) || code,
        color: row.text(c.route_color),
        textColor: row.text(c.route_text_color),
        routeType,
        agency,
        physicalMode: draft.mode(draft.physicalModes, 'physical_mode', mode.key, mode.name),
        commercialMode: draft.mode(draft.commercialModes, 'commercial_mode', mode.key, mode.name),
        feed,
      });
    },
    onBytes,
  );
}
