/** The error and warning catalogues (src/api/errors.ts, src/maps/map-warnings.ts) and their tables in docs/api.md say the same, row for row. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCatalogue } from '../../../src/api/errors.js';
import { warningCatalogue } from '../../../src/maps/map-warnings.js';

const API_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/api.md');

/** The cells of each row of the first table after `heading` in docs/api.md, backquotes and edges trimmed. */
function tableRows(heading: string): string[][] {
  const text = readFileSync(API_DOC, 'utf8');
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `docs/api.md has the section ${heading}`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|---'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 1)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(' | ').map((c) => c.replace(/^\| ?/, '').trim()));
  }
  return rows;
}

/** The rows (status, id, message) of the table under "## The error catalogue". */
const docRows = () => tableRows('## The error catalogue').map(([status, id, message]) => `${status} ${id!.replace(/`/g, '')} ${message!.replace(/^`|`$/g, '')}`);

test('every error of the catalogue is in the table of docs/api.md, and nothing else', () => {
  const catalogue = errorCatalogue().map((e) => `${e.status} ${e.id} ${e.message}`);
  assert.ok(catalogue.length >= 10);
  assert.deepEqual(docRows().sort(), catalogue.sort());
});

/** The rows (id, message) of the table under "### Warnings". */
const warningRows = () => tableRows('### Warnings').map(([id, message]) => `${id!.replace(/^`|`$/g, '')} ${message!.replace(/^`|`$/g, '')}`);

test('every warning of the catalogue is in the table of docs/api.md, and nothing else', () => {
  const catalogue = warningCatalogue().map((w) => `${w.id} ${w.message}`);
  assert.deepEqual(warningRows().sort(), catalogue.sort());
});
