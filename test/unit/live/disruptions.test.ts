/**
 * Disruptions: the file format and its validation, ServiceAlerts as disruptions (on the real BART
 * capture), the status at an instant, the index (trips, tags, NO_SERVICE) and the planned runs of
 * the adapted level.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { Referential } from '../../../src/ptref/referential.js';
import { decodeFeedMessage, type FeedMessage } from '../../../src/live/realtime/gtfs-rt.js';
import { ALWAYS, statusAt, type Disruption } from '../../../src/live/disruptions/disruption.js';
import { DisruptionFileError, parseDisruptionFile } from '../../../src/live/disruptions/disruption-file.js';
import { coverageLanguage, pickTranslation, readAlerts } from '../../../src/live/disruptions/alerts.js';
import { DisruptionIndex } from '../../../src/live/disruptions/disruption-index.js';
import { plannedRuns } from '../../../src/live/disruptions/planned-runs.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { SHARED_DATA, SHARED_DATA_MISSING } from '../../helpers/shared-data.js';
import { TOWN } from '../../helpers/town-app.js';
import { describeOrSkip } from '../../helpers/skip.js';

const PARIS = 'Europe/Paris';
let town: Referential;

before(async () => {
  town = new Referential(await loadTimetable([writeFeed(TOWN, 'town')], { report: new LoadReport() }));
});

const parse = (value: unknown, file = 'disruptions.json') => parseDisruptionFile(typeof value === 'string' ? value : JSON.stringify(value), file, town, PARIS);
const tripIds = (trips: Iterable<number>) => [...trips].map((t) => town.tt.trips.ids[t]);

describe('the disruptions file', () => {
  test('a complete entry is read with every field, datetimes in the coverage time zone', () => {
    const { disruptions, problems } = parse({
      disruptions: [
        {
          id: 'works-b1',
          tags: ['works', 'line 1'],
          cause: 'roadworks',
          category: 'planned',
          severity: { name: 'blocking', effect: 'NO_SERVICE', color: '#ff0000', priority: 10 },
          application_periods: [{ begin: '20240115T000000', end: '2024-01-15T23:59:59' }, { begin: '20240120T120000Z', end: '20240120T130000+01:00' }],
          messages: [{ text: 'No buses', channel: { id: 'sms', name: 'SMS', content_type: 'text/plain', types: ['sms'] } }, { text: 'Plain' }],
          impacted_objects: [{ type: 'line', id: 'B1' }, { type: 'stop_area', id: 'GARE' }, { type: 'trip', id: 'B2-1000' }],
          updated_at: '20240110T120000',
        },
      ],
    });
    assert.deepEqual(problems, []);
    assert.equal(disruptions.length, 1);
    const d = disruptions[0]!;
    assert.equal(d.id, 'works-b1');
    assert.equal(d.source, 'file');
    assert.deepEqual(d.tags, ['works', 'line 1']);
    assert.equal(d.cause, 'roadworks');
    assert.equal(d.category, 'planned');
    assert.deepEqual(d.severity, { name: 'blocking', effect: 'NO_SERVICE', color: '#ff0000', priority: 10 });
    assert.deepEqual(d.periods, [
      { begin: zonedToEpoch(PARIS, 2024, 1, 15, 0, 0, 0), end: zonedToEpoch(PARIS, 2024, 1, 15, 23, 59, 59) },
      { begin: Date.UTC(2024, 0, 20, 12) / 1000, end: Date.UTC(2024, 0, 20, 12) / 1000 },
    ]);
    assert.deepEqual(d.messages, [
      { text: 'No buses', channel: { id: 'sms', name: 'SMS', content_type: 'text/plain', types: ['sms'] } },
      { text: 'Plain', channel: { id: 'web', name: 'web', content_type: 'text/plain', types: ['web'] } },
    ]);
    assert.deepEqual(d.impacted, [
      { type: 'line', index: town.indexOf('line', 'B1') },
      { type: 'stop_area', index: town.indexOf('stop_area', 'GARE') },
      { type: 'trip', index: town.indexOf('trip', 'B2-1000') },
    ]);
    assert.equal(d.updatedAtSec, zonedToEpoch(PARIS, 2024, 1, 10, 12, 0, 0));
  });

  test('only the id is required: the rest has defaults, no period means always', () => {
    const { disruptions, problems } = parse({ disruptions: [{ id: 'tag-only', tags: ['x'] }] });
    assert.deepEqual(problems, []);
    assert.deepEqual(disruptions, [
      {
        id: 'tag-only',
        source: 'file',
        tags: ['x'],
        cause: '',
        category: '',
        severity: { name: '', effect: 'UNKNOWN_EFFECT', color: '', priority: 0 },
        periods: [ALWAYS],
        messages: [],
        impacted: [],
        updatedAtSec: undefined,
      },
    ]);
  });

  test('an unusable file is an error naming the file', () => {
    assert.throws(() => parse('{"disruptions": [', '/tmp/d.json'), (e: Error) => e instanceof DisruptionFileError && /^\/tmp\/d\.json: not JSON/.test(e.message));
    assert.throws(() => parse([], '/tmp/d.json'), { name: 'DisruptionFileError', message: '/tmp/d.json: expected an object with a "disruptions" array' });
    assert.throws(() => parse({ disruption: [] }, '/tmp/d.json'), { name: 'DisruptionFileError', message: '/tmp/d.json: expected an object with a "disruptions" array' });
  });

  test('each bad entry is reported with its index and id and skipped; the others are kept', () => {
    const { disruptions, problems } = parse({
      disruptions: [
        'text',
        { tags: ['no id'] },
        { id: 'good' },
        { id: 'good' },
        { id: 'effect', severity: { effect: 'BROKEN' } },
        { id: 'reversed', application_periods: [{ begin: '20240115T120000', end: '20240115T110000' }] },
        { id: 'date', application_periods: [{ begin: '20241315', end: '20240115' }] },
        { id: 'tags', tags: 'works' },
        { id: 'priority', severity: { priority: 'high' } },
        { id: 'message', messages: [{ channel: {} }] },
        { id: 'last' },
      ],
    });
    assert.deepEqual(
      disruptions.map((d) => d.id),
      ['good', 'last'],
    );
    assert.deepEqual(problems, [
      'disruptions.json: disruptions[0]: not an object, skipped',
      'disruptions.json: disruptions[1]: "id" must be a non-empty string, skipped',
      'disruptions.json: disruptions[3] (id "good"): this id is already used by an earlier entry, skipped',
      'disruptions.json: disruptions[4] (id "effect"): "severity.effect" must be one of NO_SERVICE, REDUCED_SERVICE, SIGNIFICANT_DELAYS, DETOUR, ADDITIONAL_SERVICE, MODIFIED_SERVICE, OTHER_EFFECT, UNKNOWN_EFFECT, STOP_MOVED, skipped',
      'disruptions.json: disruptions[5] (id "reversed"): "application_periods[0]" ends before it begins, skipped',
      'disruptions.json: disruptions[6] (id "date"): "application_periods[0].begin" is not a datetime (month must be in 1..12): "20241315", skipped',
      'disruptions.json: disruptions[7] (id "tags"): "tags" must be a list of strings, skipped',
      'disruptions.json: disruptions[8] (id "priority"): "severity.priority" must be an integer, skipped',
      'disruptions.json: disruptions[9] (id "message"): "messages[0].text" must be a string, skipped',
    ]);
  });

  test('an impacted object the coverage does not know is reported and skipped, its disruption kept', () => {
    const { disruptions, problems } = parse({
      disruptions: [
        {
          id: 'partly',
          impacted_objects: [{ type: 'line', id: 'NOPE' }, { type: 'line', id: 'B2' }, { type: 'bus', id: 'B2' }, { id: 'B2' }, { type: 'stop_point', id: 'GARE' }, { type: 'line', id: 'B2' }],
        },
      ],
    });
    assert.deepEqual(disruptions[0]!.impacted, [{ type: 'line', index: town.indexOf('line', 'B2') }]);
    assert.deepEqual(problems, [
      'disruptions.json: disruptions[0] (id "partly"): impacted_objects[0]: no line "NOPE" in the coverage, skipped',
      'disruptions.json: disruptions[0] (id "partly"): impacted_objects[2]: unknown type "bus" (expected network, line, route, trip, stop_area, stop_point), skipped',
      'disruptions.json: disruptions[0] (id "partly"): impacted_objects[3] must be { "type", "id" }, skipped',
      'disruptions.json: disruptions[0] (id "partly"): impacted_objects[4]: no stop_point "GARE" in the coverage, skipped',
    ]);
  });
});

describe('status at an instant', () => {
  const at = (begin: number, end: number): Disruption => ({ ...parse({ disruptions: [{ id: 'x' }] }).disruptions[0]!, periods: [{ begin, end }, { begin: begin + 1000, end: end + 1000 }] });
  test('active inside a period (bounds included), future before all of them, past otherwise', () => {
    const d = at(100, 200);
    assert.equal(statusAt(d, 99), 'future');
    assert.equal(statusAt(d, 100), 'active');
    assert.equal(statusAt(d, 200), 'active');
    assert.equal(statusAt(d, 201), 'past'); // between two periods: one is over
    assert.equal(statusAt(d, 1150), 'active');
    assert.equal(statusAt(d, 1201), 'past');
    assert.equal(statusAt({ ...d, periods: [ALWAYS] }, 0), 'active');
  });
});

describeOrSkip('ServiceAlerts', SHARED_DATA_MISSING, () => {
  const BART = path.join(SHARED_DATA, 'rt', 'bart');
  let bart: Referential;
  let feed: FeedMessage;
  before(async () => {
    bart = new Referential(await loadTimetable([path.join(BART, 'gtfs.zip')], { report: new LoadReport() }));
    feed = decodeFeedMessage(readFileSync(path.join(BART, 'alerts-2019-08-07.pb')));
  });

  test('the BART alert becomes a disruption of its agency, with its effect, cause and header', () => {
    const entity = feed.entities.find((e) => e.alert)!;
    const alert = entity.alert!;
    const { disruptions, problems } = readAlerts(feed, bart, coverageLanguage(bart.tt));
    assert.deepEqual(problems, []);
    assert.equal(disruptions.length, feed.entities.filter((e) => e.alert).length);
    const d = disruptions[0]!;
    // values of the capture (read with `strings` on the file): one alert BSA_187874 on agency BART
    assert.equal(d.id, 'BSA_187874');
    assert.equal(d.id, entity.id);
    assert.equal(d.severity.effect, 'SIGNIFICANT_DELAYS');
    assert.equal(d.severity.effect, alert.effect);
    assert.equal(d.cause, 'medical emergency');
    assert.equal(d.cause, alert.cause!.toLowerCase().replace(/_/g, ' '));
    assert.deepEqual(d.periods, [ALWAYS]); // no active_period in the capture
    assert.equal(alert.activePeriods.length, 0);
    assert.equal(d.messages.length, 1);
    assert.ok(d.messages[0]!.text.startsWith('There is a major delay at Montgomery St.'));
    assert.equal(d.messages[0]!.text, alert.headerText!.translations[0]!.text);
    assert.equal(d.messages[0]!.channel.id, 'title');
    assert.deepEqual(d.impacted, [{ type: 'network', index: bart.indexOf('network', 'BART') }]);
    assert.equal(alert.informedEntities[0]!.agencyId, 'BART');
    assert.equal(d.updatedAtSec, feed.header.timestamp);
    assert.deepEqual(d.tags, []);
    // the whole network: every trip
    const index = DisruptionIndex.of(bart, [], disruptions);
    assert.equal(index.tripsOf(0).length, bart.tt.trips.ids.length);
  });

  test('informed entities name their most specific object; unknown ids are reported', () => {
    const message: FeedMessage = {
      header: { gtfsRealtimeVersion: '2.0', timestamp: 1705320000 },
      entities: [
        {
          id: 'a1',
          alert: {
            activePeriods: [{ start: 1000 }, { start: 2000, end: 3000 }],
            informedEntities: [
              { trip: { tripId: 'B1-0800', routeId: 'B1' } },
              { stopId: 'MARCHE', routeId: 'B1' },
              { stopId: 'GARE' },
              { routeId: 'B1', directionId: 1 },
              { routeId: 'B2' },
              { agencyId: 'BLUE' },
              { routeId: 'ZZ' },
              { trip: { tripId: 'NOPE' } },
              { routeType: 3 },
            ],
            effect: 'NO_EFFECT',
            headerText: { translations: [{ text: 'Hello', language: 'en' }, { text: 'Bonjour', language: 'fr-FR' }] },
            descriptionText: { translations: [{ text: 'Details' }] },
          },
        },
        { id: 'gone', isDeleted: true, alert: { activePeriods: [], informedEntities: [] } },
      ],
    };
    const { disruptions, problems } = readAlerts(message, town, 'fr');
    assert.equal(disruptions.length, 1);
    const d = disruptions[0]!;
    assert.deepEqual(d.impacted, [
      { type: 'trip', index: town.indexOf('trip', 'B1-0800') },
      { type: 'stop_point', index: town.indexOf('stop_point', 'MARCHE') },
      { type: 'stop_area', index: town.indexOf('stop_area', 'GARE') },
      { type: 'route', index: town.indexOf('route', 'route:B1:1') },
      { type: 'line', index: town.indexOf('line', 'B2') },
      { type: 'network', index: town.indexOf('network', 'BLUE') },
    ]);
    assert.deepEqual(problems, [
      { entity: 'a1', reason: 'unknown route ZZ' },
      { entity: 'a1', reason: 'unknown trip NOPE' },
      { entity: 'a1', reason: 'an informed entity without agency_id, route_id, trip_id or stop_id (route_type alone is not read)' },
    ]);
    assert.deepEqual(d.periods, [{ begin: 1000, end: Infinity }, { begin: 2000, end: 3000 }]);
    assert.equal(d.severity.effect, 'OTHER_EFFECT');
    assert.equal(d.cause, 'unknown cause');
    assert.deepEqual(
      d.messages.map((m) => [m.text, m.channel.id]),
      [
        ['Bonjour', 'title'],
        ['Details', 'web'],
      ],
    );
    assert.equal(pickTranslation({ translations: [{ text: 'A', language: 'de' }, { text: 'B', language: 'en-US' }] }, 'en-US'), 'B');
    assert.equal(pickTranslation({ translations: [{ text: 'A', language: 'de' }] }, 'en'), 'A');
    assert.equal(pickTranslation(undefined, 'en'), undefined);
  });
});

describe('the index of a generation', () => {
  test('trips of an impact through their line, stop or network; tags (OR); NO_SERVICE trips; an alert takes the file tags of its id', () => {
    const { disruptions: file } = parse({
      disruptions: [
        { id: 'line', tags: ['works'], severity: { effect: 'NO_SERVICE' }, impacted_objects: [{ type: 'line', id: 'B2' }] },
        { id: 'stop', tags: ['stop', 'works'], impacted_objects: [{ type: 'stop_point', id: 'ECOLE' }] },
        { id: 'alert-1', tags: ['from-file'], impacted_objects: [{ type: 'line', id: 'T1' }] },
      ],
    });
    const alert: Disruption = { ...file[0]!, id: 'alert-1', source: 'gtfs-rt', tags: [], severity: { ...file[0]!.severity, effect: 'DETOUR' }, impacted: [{ type: 'network', index: town.indexOf('network', 'BLUE') }] };
    const index = DisruptionIndex.of(town, file, [alert]);
    assert.deepEqual(
      index.all.map((d) => [d.id, d.source, d.tags]),
      [
        ['line', 'file', ['works']],
        ['stop', 'file', ['stop', 'works']],
        ['alert-1', 'gtfs-rt', ['from-file']],
      ],
    );
    assert.deepEqual(tripIds(index.tripsTagged(['works'])), ['B2-1000', 'B2-1100']);
    assert.deepEqual(tripIds(index.tripsTagged(['stop'])), ['B2-1000', 'B2-1100']); // ECOLE is only on line B2
    assert.deepEqual(tripIds(index.tripsTagged(['from-file', 'nope'])), ['T1-FREQ', 'D1-ODT', 'D1-ZONE']); // the alert's network, not the file's line
    assert.deepEqual(tripIds(index.tripsTagged(['nope'])), []);
    assert.deepEqual(tripIds(index.noServiceTrips), ['B2-1000', 'B2-1100']);
    assert.deepEqual([...index.ofTrip(town.indexOf('trip', 'B2-1000'))], [0, 1]);
    assert.deepEqual([...index.ofTrip(town.indexOf('trip', 'B1-0800'))], []);
  });
});

describe('planned runs (adapted level)', () => {
  const jan15 = dayNumber(2024, 1, 15);
  const runsOf = (entries: unknown[]) => {
    const { disruptions } = parse({ disruptions: entries });
    return plannedRuns(town, disruptions, dayNumber(2024, 1, 2), dayNumber(2024, 2, 10));
  };

  test('NO_SERVICE on a line cancels the runs that meet a period, and only those', () => {
    const { runs, problems } = runsOf([
      { id: 'b1', severity: { effect: 'NO_SERVICE' }, application_periods: [{ begin: '20240115T085000', end: '20240115T120000' }], impacted_objects: [{ type: 'line', id: 'B1' }] },
      { id: 'delays', severity: { effect: 'SIGNIFICANT_DELAYS' }, impacted_objects: [{ type: 'network', id: 'RED' }] },
    ]);
    assert.deepEqual(problems, []);
    // B1-0800 runs 08:00-08:20 (before the period), B1-0900 09:00-09:20 (inside), B1-1700 after
    assert.deepEqual(
      runs.map((r) => [town.tt.trips.ids[r.trip], r.day, r.cancelled]),
      [['B1-0900', jan15, true]],
    );
  });

  test('a period without bounds covers the production period; NO_SERVICE on a stop skips it', () => {
    const { runs } = runsOf([
      { id: 'hol', severity: { effect: 'NO_SERVICE' }, impacted_objects: [{ type: 'trip', id: 'B2-1100' }] },
      { id: 'marche', severity: { effect: 'NO_SERVICE' }, application_periods: [{ begin: '20240115T080400', end: '20240115T080600' }], impacted_objects: [{ type: 'stop_point', id: 'MARCHE' }] },
      { id: 'ecole', severity: { effect: 'NO_SERVICE' }, application_periods: [{ begin: '20240120T000000', end: '20240120T235959' }], impacted_objects: [{ type: 'stop_area', id: 'stop_area:ECOLE' }] },
    ]);
    const summary = runs.map((r) => [town.tt.trips.ids[r.trip], r.day, r.cancelled, [...r.skipped]]);
    assert.deepEqual(summary, [
      ['B2-1100', jan15, true, [0, 0]],
      ['B2-1100', dayNumber(2024, 2, 10), true, [0, 0]],
      ['B1-0800', jan15, false, [0, 1, 0, 0]],
      ['B2-1000', dayNumber(2024, 1, 20), true, [0, 1]], // one stop left: no run
    ]);
    // the scheduled times, not copied: views on the timetable
    for (const run of runs) {
      assert.equal(run.arrivalSec.buffer, town.tt.stopTimes.arrivalSec.buffer);
      assert.equal(run.departureSec.buffer, town.tt.stopTimes.departureSec.buffer);
      assert.deepEqual([...run.arrivalSec], [...town.tt.stopTimes.arrivalSec.subarray(town.tt.trips.stopTimeOffset[run.trip]!, town.tt.trips.stopTimeOffset[run.trip + 1]!)]);
    }
  });
});
