/**
 * `GET /v1`: the API's index, links to what a client starts from (Navitia answers its root with
 * links too): the coverages, the machine-readable schemas, the documentation page, the status.
 */
import type { FastifyInstance } from 'fastify';
import { baseUrl, type Link } from './links.js';

const ENTRIES: { path: string; rel: string; title: string }[] = [
  { path: '/v1/coverage', rel: 'coverage', title: 'The coverages served, with the links of each' },
  { path: '/v1/openapi.json', rel: 'openapi', title: 'OpenAPI 3 description of every operation' },
  { path: '/v1/schema', rel: 'schema', title: 'Swagger 2.0 description of every operation' },
  { path: '/docs', rel: 'docs', title: 'The operations and their parameters, as a page' },
  { path: '/v1/status', rel: 'status', title: 'The state of each coverage and of the server' },
  { path: '/', rel: 'explorer', title: 'The explorer: heat maps, isochrones and trips on a map' },
];

export function registerApiIndex(app: FastifyInstance): void {
  app.get('/v1', (req, reply) => {
    const base = baseUrl(req.headers, req.protocol === 'https');
    const links: (Link & { title: string })[] = ENTRIES.map((e) => ({ href: `${base}${e.path}`, templated: false, rel: e.rel, type: e.rel, title: e.title }));
    return reply.type('application/json').send(JSON.stringify({ links }));
  });
}
