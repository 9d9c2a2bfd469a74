/**
 * `/v1/schema` (Swagger 2.0), `/v1/openapi.json` (OpenAPI 3) and `/docs` (an HTML page of the
 * operations: a table of their paths and query parameters, then each with its parameters in full, written here from the OpenAPI document: no script, nothing
 * fetched from elsewhere). The documents depend only on the limits: built once.
 */
import type { FastifyInstance } from 'fastify';
import { openApiDocument, swaggerDocument } from './openapi.js';
import type { Limits } from '../service/limits.js';

export function registerSchemaRoutes(app: FastifyInstance, limits: Limits): void {
  const swagger = JSON.stringify(swaggerDocument(limits));
  const openApi = openApiDocument(limits);
  const openApiText = JSON.stringify(openApi);
  const docs = docsPage(openApi);
  app.get('/v1/schema', (_req, reply) => reply.type('application/json').send(swagger));
  app.get('/v1/openapi.json', (_req, reply) => reply.type('application/json').send(openApiText));
  app.get('/docs', (_req, reply) => reply.type('text/html; charset=utf-8').send(docs));
}

type Json = Record<string, any>;

const escape = (text: unknown) =>
  String(text ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function docsPage(doc: Json): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Record<string, { get: Json; servers?: Json[] }>)) {
    const op = item.get;
    // a path's own server (the probes: the root) or the document's (/v1)
    const server = ((item.servers ?? doc['servers'])[0]['url'] as string).replace(/\/$/, '');
    const rows = (op['parameters'] as Json[]).map((p) => {
      const s = p['schema'] as Json;
      const type = s['type'] === 'array' ? `${s['items']['type']}[]` : s['type'];
      const values = s['enum'] ?? s['items']?.['enum'];
      const range = s['minimum'] !== undefined || s['maximum'] !== undefined ? ` [${s['minimum'] ?? ''}, ${s['maximum'] ?? ''}]` : '';
      return (
        `<tr><td><code>${escape(p['name'])}</code>${p['deprecated'] ? ' (deprecated)' : ''}</td><td>${escape(p['in'])}</td>` +
        `<td>${escape(type)}${escape(range)}${values ? `: ${values.map((v: unknown) => `<code>${escape(v)}</code>`).join(', ')}` : ''}</td>` +
        `<td>${s['default'] !== undefined ? `<code>${escape(JSON.stringify(s['default']))}</code>` : ''}</td><td>${escape(p['description'])}</td></tr>`
      );
    });
    sections.push(
      `<section id="${escape(op['operationId'])}"><h2><code>GET ${escape(server + path)}</code></h2>` +
        `<p><b>${escape(op['operationId'])}</b>: ${escape(op['summary'])}</p>` +
        `<table><tr><th>parameter</th><th>in</th><th>type</th><th>default</th><th>description</th></tr>${rows.join('')}</table></section>`,
    );
  }
  // the contents: each operation's path, what it does and its query parameters, linked to its section
  const toc = Object.entries(doc['paths'] as Record<string, { get: Json; servers?: Json[] }>)
    .map(([path, { get, servers }]) => {
      const server = ((servers ?? doc['servers'])[0]['url'] as string).replace(/\/$/, '');
      const query = (get['parameters'] as Json[]).filter((p) => p['in'] === 'query').map((p) => `<code>${escape(p['name'])}</code>`);
      return (
        `<tr><td><a href="#${escape(get['operationId'])}"><code>GET ${escape(server + path)}</code></a></td><td>${escape(get['summary'])}</td>` +
        `<td>${query.length > 0 ? query.join(' ') : 'none'}</td></tr>`
      );
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(doc['info']['title'])} API</title>
<style>body{font-family:system-ui,sans-serif;max-width:72em;margin:2em auto;padding:0 1em}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3em;text-align:left;vertical-align:top}code{font-size:.95em}</style>
</head><body>
<h1>${escape(doc['info']['title'])} API ${escape(doc['info']['version'])}</h1>
<p>${escape(doc['info']['description'])} Machine-readable: <a href="/v1/schema">Swagger 2.0</a>, <a href="/v1/openapi.json">OpenAPI 3</a>.</p>
<table><tr><th>operation</th><th>what</th><th>query parameters</th></tr>${toc}</table>
${sections.join('\n')}
</body></html>`;
}
