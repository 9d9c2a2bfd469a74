/**
 * "Do not advertise a link that is not served": every link of `/v1/coverage` and
 * `/v1/coverage/{region}` on the demo town, its templated parts filled with real ids and the
 * endpoint's required parameters given, answers 200.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { getAnswer, serveCoverages, type ServedApp } from '../../../helpers/app.js';

let served: ServedApp;

before(async () => {
  const demo = path.resolve('data/demo');
  served = await serveCoverages([{ id: 'demo', gtfs: [path.join(demo, 'gtfs')], osm: path.join(demo, 'valmont.osm'), timezone: 'Europe/Paris' }]);
});

after(() => served.close());

/** What an endpoint needs besides its path (a day of the demo's production period). */
const REQUIRED: Record<string, string> = {
  heat_maps: 'from=GARE-T&max_duration=600&resolution=20&datetime=20261124T080000',
  isochrones: 'from=GARE-T&max_duration=600&datetime=20261124T080000',
  places: 'q=gare',
};

/** A link's href as a request path: the region, the point and the ids filled in. */
function requestOf(href: string, type: string): string {
  const url = new URL(href.replace('{regions.id}', 'demo').replace('{lon;lat}', '4.841828;45.732672'));
  assert.doesNotMatch(url.pathname, /[{}]/, `${href}: every templated part is filled`);
  return `${url.pathname}${REQUIRED[type] ? `?${REQUIRED[type]}` : ''}`;
}

for (const coverage of ['/v1/coverage', '/v1/coverage/demo']) {
  test(`every link ${coverage} advertises answers 200`, async () => {
    const a = await getAnswer(served.app, coverage);
    assert.equal(a.status, 200);
    const types = a.json.links.map((l: { type: string }) => l.type);
    assert.deepEqual(types, [
      'stop_points',
      'routes',
      'networks',
      'commercial_modes',
      'physical_modes',
      'companies',
      'stop_areas',
      'lines',
      'vehicle_journeys',
      'trips',
      'coverage',
      'places',
      'isochrones',
      'heat_maps',
      'places_nearby',
    ]);
    for (const link of a.json.links as { href: string; type: string }[]) {
      const url = requestOf(link.href, link.type);
      const answer = await getAnswer(served.app, url);
      assert.equal(answer.status, 200, `${url}: ${answer.body.slice(0, 300)}`);
      assert.equal(answer.json.error, undefined, url);
    }
  });
}
