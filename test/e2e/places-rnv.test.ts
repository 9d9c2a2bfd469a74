/**
 * `/places` on rnv-mannheim (2,057 stops, German names with ä, ö, ü and ß): accent and ß folding,
 * and the ranking on real names (the search's cost: bench/places.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { foldText } from '../../src/util/fold-text.js';
import { getJson } from '../helpers/app.js';
import { COVERAGE, serve, sharedFeed, type Served } from './coverage-app.js';

const FEED = sharedFeed('rnv-mannheim', 'gtfs.zip');

let served: Served;

before(async () => {
  served = await serve([FEED]);
});

after(() => served.close());

const places = async (query: string) => {
  const a = await getJson(served.app, `/v1/coverage/${COVERAGE}/places?${query}`);
  assert.equal(a.status, 200);
  return a.json.places as { id: string; name: string; quality: number; embedded_type: string }[];
};

test('rnv: "pettenkoferstrasse" finds Pettenkoferstraße exactly (ß folds to ss), stop areas only by default', async () => {
  const areas = served.generation.tt.stopAreas.filter((a) => a.name === 'Pettenkoferstraße');
  assert.ok(areas.length >= 1);
  const found = await places('q=pettenkoferstrasse&count=50');
  assert.deepEqual(
    found.map((p) => [p.name, p.quality, p.embedded_type]),
    areas.map(() => ['Pettenkoferstraße', 100, 'stop_area']),
  );
  // the same with the accented spelling, in capitals
  assert.deepEqual(await places('q=PETTENKOFERSTRA%C3%9FE&count=50'), found);
});

test('rnv: "lammertr" is a name prefix of Lämmertränke; ranks are never worse than the next', async () => {
  const found = await places('q=lammertr&type[]=stop_area&type[]=stop_point&count=100');
  assert.ok(found.length > 0);
  assert.ok(found.every((p) => foldText(p.name).includes('lammertr')));
  assert.equal(found[0]!.name, 'Lämmertränke');
  assert.equal(found[0]!.quality, 90);
  for (let k = 1; k < found.length; k++) {
    assert.ok(found[k - 1]!.quality >= found[k]!.quality, 'best first');
    if (found[k - 1]!.quality === found[k]!.quality && found[k - 1]!.embedded_type !== found[k]!.embedded_type) {
      assert.equal(found[k - 1]!.embedded_type, 'stop_area', 'stop areas before stop points');
    }
  }
  // "strasse" is in many names: word prefixes ("… Straße") never come after substrings ("Hauptstraße")
  const streets = await places('q=strasse&count=200');
  const qualities = streets.map((p) => p.quality);
  assert.deepEqual(qualities, [...qualities].sort((a, b) => b - a));
  assert.ok(qualities.includes(70));
});
