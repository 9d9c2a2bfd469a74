/** agency.txt and feed_info.txt: who runs the services, and who publishes the feed. */
import { isValidTimeZone } from '../util/time-zones.js';
import { FeedError } from './load-report.js';
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readAgencies(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed, ids } = f;
  const file = f.file('agency.txt');
  const onBytes = f.on('agency.txt');
  await readTable(
    source,
    {
      file: 'agency.txt',
      columns: ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone'] as const,
      required: ['agency_name'] as const,
    },
    (row, c) => {
      const localId = row.text(c.agency_id) || row.text(c.agency_name);
      if (ids.agencies.has(localId)) {
        draft.report.problem(file, row.line, 'duplicate agency_id, row skipped', localId);
        return;
      }
      let timezone = row.text(c.agency_timezone).trim();
      if (!isValidTimeZone(timezone)) {
        draft.report.problem(file, row.line, 'missing or unknown agency_timezone, the coverage time zone is used', timezone);
        timezone = '';
      }
      ids.agencies.set(localId, draft.agencies.length);
      if (!row.text(c.agency_id) && ids.agencies.size === 1) ids.agencies.set('', draft.agencies.length);
      draft.agencies.push({
        id: draft.uniqueId('agency', localId, feed),
        name: row.text(c.agency_name),
        url: row.text(c.agency_url),
        timezone,
        lang: row.text(c.agency_lang),
        phone: row.text(c.agency_phone),
        feed,
      });
    },
    onBytes,
  );
  if (ids.agencies.size === 0) throw new FeedError(`${source.location}: agency.txt has no agency`);
}

export async function readFeedInfo(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed } = f;
  const onBytes = f.on('feed_info.txt');
  const meta = draft.feeds[feed]!;
  await readTable(
    source,
    { file: 'feed_info.txt', columns: ['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'feed_version'] as const },
    (row, c) => {
      if (meta.publisherName) return; // first row wins
      meta.publisherName = row.text(c.feed_publisher_name);
      meta.publisherUrl = row.text(c.feed_publisher_url);
      meta.lang = row.text(c.feed_lang);
      meta.version = row.text(c.feed_version);
    },
    onBytes,
  );
}
