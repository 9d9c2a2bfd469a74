/**
 * Pagination and links of the trips answers (navitia-trips.md §3.3, §3.4): the templated id link,
 * previous/next/last/first, every original parameter kept, none under a lon;lat coverage.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, ids, testServer } from '../../../helpers/town-app.js';

after(async () => (await testServer()).app.close());

const BASE = 'http://localhost:80';
const TEMPLATED = { href: `${BASE}/v1/coverage/town/trips/{trips.id}`, templated: true, rel: 'trips', type: 'trips' };
const paging = (type: string, query: string, path = '/v1/coverage/town/trips') => ({ href: `${BASE}${path}${query ? `?${query}` : ''}`, type, templated: false });

test('first page of 9 trips by 2: templated link, next, last (page 4) and first', async () => {
  const a = await get('/v1/coverage/town/trips?count=2');
  assert.deepEqual(ids(a), ['B1-0800', 'B1-0900']);
  assert.deepEqual(a.json.links, [TEMPLATED, paging('next', 'count=2&start_page=1'), paging('last', 'count=2&start_page=4'), paging('first', 'count=2')]);
});

test('a middle page has previous, next, last and first', async () => {
  const a = await get('/v1/coverage/town/trips?count=2&start_page=2');
  assert.deepEqual(ids(a), ['B2-1100', 'N1-2530']);
  assert.deepEqual(a.json.links, [
    TEMPLATED,
    paging('previous', 'count=2&start_page=1'),
    paging('next', 'count=2&start_page=3'),
    paging('last', 'count=2&start_page=4'),
    paging('first', 'count=2'),
  ]);
});

test('the last page has previous and first only', async () => {
  const a = await get('/v1/coverage/town/trips?start_page=4&count=2');
  assert.deepEqual(ids(a), ['D1-ZONE']);
  assert.deepEqual(a.json.pagination, { total_result: 9, start_page: 4, items_per_page: 2, items_on_page: 1 });
  assert.deepEqual(a.json.links, [TEMPLATED, paging('previous', 'start_page=3&count=2'), paging('first', 'count=2')]);
});

test('a page past the end: 200 without trips nor templated link, with previous and first', async () => {
  const a = await get('/v1/coverage/town/trips?count=2&start_page=7');
  assert.equal(a.status, 200);
  assert.equal('trips' in a.json, false);
  assert.deepEqual(a.json.pagination, { total_result: 9, start_page: 7, items_per_page: 2, items_on_page: 0 });
  assert.deepEqual(a.json.links, [paging('previous', 'count=2&start_page=6'), paging('first', 'count=2')]);
});

test('count=0: next but no last (items_per_page is 0)', async () => {
  const a = await get('/v1/coverage/town/trips?count=0');
  assert.deepEqual(a.json.links, [paging('next', 'count=0&start_page=1'), paging('first', 'count=0')]);
});

test('a single page has the templated link and first', async () => {
  const a = await get('/v1/coverage/town/trips');
  assert.deepEqual(a.json.links, [TEMPLATED, paging('first', '')]);
});

test('/trips/{id} has the same templated link, and first on the id path', async () => {
  const a = await get('/v1/coverage/town/lines/B1/trips/B1-0800');
  assert.deepEqual(a.json.links, [TEMPLATED, paging('first', '', '/v1/coverage/town/lines/B1/trips/B1-0800')]);
});

test('under a {uri} the templated link drops the uri and paging links keep it', async () => {
  const a = await get('/v1/coverage/town/lines/B1/trips?count=1');
  assert.deepEqual(a.json.links, [
    TEMPLATED,
    paging('next', 'count=1&start_page=1', '/v1/coverage/town/lines/B1/trips'),
    paging('last', 'count=1&start_page=2', '/v1/coverage/town/lines/B1/trips'),
    paging('first', 'count=1', '/v1/coverage/town/lines/B1/trips'),
  ]);
});

test('paging links repeat every original parameter, unknown and repeated ones included', async () => {
  const a = await get('/v1/coverage/town/trips?count=2&start_page=1&allowed_id[]=toto&allowed_id[]=titi&forbidden_uris[]=NOPE&filter=line.code%3D1%20or%20all');
  const pagingLinks = a.json.links.filter((l: { templated: boolean }) => !l.templated);
  assert.deepEqual(pagingLinks.map((l: { type: string }) => l.type), ['previous', 'next', 'last', 'first']);
  for (const link of pagingLinks) {
    const url = new URL(link.href);
    assert.equal(url.pathname, '/v1/coverage/town/trips', link.type);
    assert.deepEqual(url.searchParams.getAll('count'), ['2']);
    assert.deepEqual(url.searchParams.getAll('allowed_id[]'), ['toto', 'titi']);
    assert.deepEqual(url.searchParams.getAll('forbidden_uris[]'), ['NOPE']);
    assert.deepEqual(url.searchParams.getAll('filter'), ['line.code=1 or all']);
    assert.ok(link.href.includes('allowed_id%5B%5D=toto'), 'brackets stay escaped');
    // The links differ only in start_page.
    url.searchParams.delete('start_page');
    assert.equal(url.searchParams.toString(), new URL(pagingLinks[3].href).searchParams.toString());
  }
  const pages = pagingLinks.map((l: { href: string }) => new URL(l.href).searchParams.get('start_page'));
  assert.deepEqual(pages, ['0', '2', '4', null]);
});

test('a lon;lat coverage gets the templated link with float coordinates and no paging links', async () => {
  const a = await get('/v1/coverage/5;45.003/trips?count=2');
  assert.equal(a.json.pagination.total_result, 9);
  assert.deepEqual(a.json.links, [{ href: `${BASE}/v1/coverage/5.0;45.003/trips/{trips.id}`, templated: true, rel: 'trips', type: 'trips' }]);
});

test('a coordinate in the path keeps its ";" unescaped in links', async () => {
  const a = await get('/v1/coverage/town/coord/5.0%3B45.003/trips?distance=100');
  assert.deepEqual(a.json.links[1], paging('first', 'distance=100', '/v1/coverage/town/coord/5.0;45.003/trips'));
});

test('hrefs are built from the Host header, and X-Scheme overrides the scheme', async () => {
  const a = await get('/v1/coverage/town/trips?count=5', { host: 'api.example.org', 'x-scheme': 'https' });
  for (const link of a.json.links) assert.ok(link.href.startsWith('https://api.example.org/v1/coverage/town/trips'), link.href);
});
