/** The error and warning catalogues (src/api/errors.ts, src/maps/map-warnings.ts) and their tables in docs/api.md say the same, row for row. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCatalogue } from '../../../src/api/errors.js';
import { warningCatalogue } from '../../../src/maps/map-warnings.js';

const API_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/api.md');

/** The rows (status, id, message) of the table under "## The error catalogue". */
function docRows(): string[] {
  const text = readFileSync(API_DOC, 'utf8');
  const start = text.indexOf('## The error catalogue');
  assert.ok(start >= 0, 'docs/api.md has the section');
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|---'));
  const rows: string[] = [];
  for (const line of lines.slice(first + 1)) {
    if (!line.startsWith('|')) break;
    const [status, id, message] = line.split(' | ').map((c) => c.replace(/^\| ?/, '').trim());
    rows.push(`${status} ${id!.replace(/`/g, '')} ${message!.replace(/^`|`$/g, '')}`);
  }
  return rows;
}

test('every error of the catalogue is in the table of docs/api.md, and nothing else', () => {
  const catalogue = errorCatalogue().map((e) => `${e.status} ${e.id} ${e.message}`);
  assert.ok(catalogue.length >= 10);
  assert.deepEqual(docRows().sort(), catalogue.sort());
});

/** The rows (id, message) of the table under "### Warnings". */
function warningRows(): string[] {
  const text = readFileSync(API_DOC, 'utf8');
  const start = text.indexOf('### Warnings');
  assert.ok(start >= 0, 'docs/api.md has the section');
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|---'));
  const rows: string[] = [];
  for (const line of lines.slice(first + 1)) {
    if (!line.startsWith('|')) break;
    const [id, message] = line.split(' | ').map((c) => c.replace(/^\| ?/, '').trim().replace(/^`|`$/g, ''));
    rows.push(`${id} ${message}`);
  }
  return rows;
}

test('every warning of the catalogue is in the table of docs/api.md, and nothing else', () => {
  const catalogue = warningCatalogue().map((w) => `${w.id} ${w.message}`);
  assert.deepEqual(warningRows().sort(), catalogue.sort());
});
