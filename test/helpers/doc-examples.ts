/**
 * The request examples of README.md and docs/*.md, and the answers they show, for the tests that
 * run them (test/serve/doc-examples.test.ts on the demo town, test/e2e/doc-examples-poa.test.ts on
 * Porto Alegre).
 *
 * An example is a URL on `http://localhost:9090` (a link, a `curl` line, a line of a code block), or
 * a concrete `/v1/coverage/…` path in inline code (templates, with `{…}` or `…`, are not examples).
 * Its shown answer is the ```json block that directly follows the code block holding it, when that
 * block holds one example only. The answer is an excerpt: every value shown must be the server's,
 * object members left out are not checked, `…` stands for members or array items left out (and, in
 * a string, for any text), and the fields that tell the moment of the run (MOMENT_FIELDS) are
 * checked for their form only.
 *
 * In a page, an HTML comment before an example (on the line before it, or before its code block)
 * says what the test must know: `<!-- not-run: why -->` (the example is not requested: keep these
 * few), `<!-- status: 404 -->` (the status it answers, 200 otherwise).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { answerOf } from './http.js';

export interface DocExample {
  /** the page, relative to the repository: README.md, docs/api.md */
  file: string;
  /** 1-based line of the example in its page */
  line: number;
  /** path and query, as requested: /v1/coverage/demo/trips?depth=2 */
  url: string;
  /** the coverage the path names, undefined for the paths outside /v1/coverage/{region} */
  coverage: string | undefined;
  /** the status the page says it answers */
  status: number;
  /** the JSON excerpt the page shows as its answer */
  excerpt?: string;
  /** why the page says it is not run */
  notRun?: string;
}

/** The pages whose examples are run: README.md and every docs/*.md. */
export function docPages(root = process.cwd()): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const HOST = 'http://localhost:9090';
const URL_IN_TEXT = /http:\/\/localhost:9090(\/[^\s'"<>`)]*)?/g;
const MARK = /^\s*<!--\s*(not-run|status):\s*(.*?)\s*-->\s*$/;

/** Every request example of the pages, in page order. */
export function docExamples(root = process.cwd()): DocExample[] {
  return docPages(root).flatMap((file) => examplesOf(file, readFileSync(path.join(root, file), 'utf8')));
}

/** The request examples of one page's text. */
export function examplesOf(file: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const out: DocExample[] = [];
  /** the marks of the next line or block */
  let marks: { notRun?: string; status?: number } = {};
  const add = (line: number, url: string) => {
    const path = url.replace(HOST, '') || '/';
    const coverage = /^\/(?:v1|explorer)\/coverage\/([^/?;]+)(?:[/?]|$)/.exec(path)?.[1];
    const example: DocExample = { file, line, url: path, coverage, status: marks.status ?? 200 };
    if (marks.notRun !== undefined) example.notRun = marks.notRun;
    out.push(example);
    return example;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const mark = MARK.exec(text);
    if (mark) {
      if (mark[1] === 'not-run') marks.notRun = mark[2]!;
      else marks.status = Number(mark[2]);
      continue;
    }
    if (text.trim() === '') continue;
    const fence = /^\s*```(\w*)/.exec(text);
    if (fence) {
      // a code block: its URLs, and the json block that directly follows it as the answer
      const inBlock: DocExample[] = [];
      let j = i + 1;
      for (; j < lines.length && !/^\s*```/.test(lines[j]!); j++) {
        if (fence[1] === 'json') continue;
        // a quoted URL whole (a query may hold parentheses), else the URL up to a space or a bracket
        const quoted = [...lines[j]!.matchAll(/'(http:\/\/localhost:9090[^']*)'/g)].map((m) => m[1]!);
        for (const url of quoted.length > 0 ? quoted : [...lines[j]!.matchAll(URL_IN_TEXT)].map((m) => m[0])) inBlock.push(add(j + 1, url));
      }
      i = j;
      let k = j + 1;
      while (k < lines.length && lines[k]!.trim() === '') k++;
      if (inBlock.length === 1 && /^\s*```json\s*$/.test(lines[k] ?? '')) {
        let end = k + 1;
        while (end < lines.length && !/^\s*```/.test(lines[end]!)) end++;
        inBlock[0]!.excerpt = lines.slice(k + 1, end).join('\n');
        i = end;
      }
      marks = {};
      continue;
    }
    // prose: links and inline code
    const seen = new Set<number>();
    for (const m of text.matchAll(/<(http:\/\/localhost:9090[^>]*)>/g)) {
      add(i + 1, m[1]!);
      seen.add(m.index!);
    }
    for (const m of text.matchAll(/`([^`]+)`/g)) {
      const code = m[1]!;
      const url = /^curl\b.*'(http:\/\/localhost:9090[^']*)'/.exec(code)?.[1];
      if (url) add(i + 1, url);
      else if (/^\/v1\/coverage\/[^\s{}…|]+$/.test(code) && !/\/\.\.\.|\[\/|\]$/.test(code)) add(i + 1, code);
    }
    marks = {};
  }
  return out;
}

/** Fields whose value tells when the server ran or loaded, not what it answers: their form only is checked. */
export const MOMENT_FIELDS = new Set(['current_datetime', 'dataset_created_at', 'last_load_at', 'loaded_at', 'started_at', 'uptime_sec', 'generation', 'today', 'updated_at', 'last_success_at']);

const ELLIPSIS = Symbol('…');

/** A string shown with `…` in it: the text around it, anything in its place. */
class Elided {
  readonly pattern: RegExp;
  constructor(readonly shown: string) {
    this.pattern = new RegExp(`^${shown.split('…').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^]*')}$`);
  }
}

type Excerpt = null | boolean | number | string | Elided | Excerpt[] | typeof ELLIPSIS | { [key: string]: Excerpt };

/** The excerpt's text read as JSON where `…` may stand for members, items or text. */
export function parseExcerpt(text: string): Excerpt {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`excerpt: ${what} at ${at}: ${JSON.stringify(text.slice(at, at + 40))}`);
  };
  const space = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const value = (): Excerpt => {
    space();
    const c = text[at];
    if (c === '…') {
      at++;
      return ELLIPSIS;
    }
    if (c === '{') {
      at++;
      const o: Record<string, Excerpt> = {};
      space();
      if (text[at] === '}') return at++, o;
      for (;;) {
        space();
        if (text[at] === '…') at++;
        else {
          const key = string();
          if (typeof key !== 'string') fail('a key with …');
          space();
          if (text[at++] !== ':') fail('expected :');
          o[key as string] = value();
        }
        space();
        const next = text[at++];
        if (next === '}') return o;
        if (next !== ',') fail('expected , or }');
      }
    }
    if (c === '[') {
      at++;
      const a: Excerpt[] = [];
      space();
      if (text[at] === ']') return at++, a;
      for (;;) {
        a.push(value());
        space();
        const next = text[at++];
        if (next === ']') return a;
        if (next !== ',') fail('expected , or ]');
      }
    }
    if (c === '"') return string();
    const literal = /^(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(text.slice(at));
    if (!literal) return fail('unexpected');
    at += literal[0].length;
    return JSON.parse(literal[0]) as Excerpt;
  };
  const string = (): string | Elided => {
    const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at));
    if (!m) return fail('expected a string');
    at += m[0].length;
    const s = JSON.parse(m[0]) as string;
    return s.includes('…') ? new Elided(s) : s;
  };
  const v = value();
  space();
  if (at !== text.length) fail('text after the value');
  return v;
}

/** The differences between what an excerpt shows and the answer, one line each (none when it matches). */
export function excerptDifferences(shown: Excerpt, answered: unknown, where = '', moment = false): string[] {
  const show = (v: unknown) => (v instanceof Elided ? JSON.stringify(v.shown) : JSON.stringify(v)?.slice(0, 120));
  const differ = (): string[] => [`${where || '(answer)'}: shown ${show(shown)}, answered ${show(answered)}`];
  if (moment) {
    // the same form: the type, and for a string its characters with the digits any digit
    if (typeof shown === 'string') return typeof answered === 'string' && shown.replace(/\d/g, '0') === answered.replace(/\d/g, '0') ? [] : differ();
    return typeof shown === typeof answered ? [] : differ();
  }
  if (shown instanceof Elided) return typeof answered === 'string' && shown.pattern.test(answered) ? [] : differ();
  if (Array.isArray(shown)) {
    if (!Array.isArray(answered)) return differ();
    return arrayDifferences(shown, answered, where);
  }
  if (shown !== null && typeof shown === 'object') {
    if (answered === null || typeof answered !== 'object' || Array.isArray(answered)) return differ();
    return Object.entries(shown).flatMap(([k, v]) => {
      const at = `${where}.${k}`;
      if (!(k in answered)) return [`${at}: shown ${show(v)}, absent from the answer`];
      return excerptDifferences(v, (answered as Record<string, unknown>)[k], at, MOMENT_FIELDS.has(k));
    });
  }
  return Object.is(shown, answered) ? [] : differ();
}

/**
 * The items shown between `…` must be found in the answer in their order; those before the first
 * `…` begin it, those after the last end it; with no `…`, the arrays are item for item the same.
 */
function arrayDifferences(shown: Excerpt[], answered: unknown[], where: string): string[] {
  const segments: Excerpt[][] = [[]];
  for (const item of shown) {
    if (item === ELLIPSIS) segments.push([]);
    else segments[segments.length - 1]!.push(item);
  }
  const matches = (items: Excerpt[], from: number) => items.every((item, k) => excerptDifferences(item, answered[from + k], '').length === 0);
  if (segments.length === 1) {
    if (shown.length !== answered.length) return [`${where}: ${shown.length} items shown, ${answered.length} answered`];
    return shown.flatMap((item, k) => excerptDifferences(item, answered[k], `${where}[${k}]`));
  }
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  if (first.length + last.length > answered.length) return [`${where}: ${first.length + last.length} items shown at the ends, ${answered.length} answered`];
  const out = first.flatMap((item, k) => excerptDifferences(item, answered[k], `${where}[${k}]`));
  const tail = answered.length - last.length;
  out.push(...last.flatMap((item, k) => excerptDifferences(item, answered[tail + k], `${where}[${tail + k}]`)));
  let from = first.length;
  for (const middle of segments.slice(1, -1)) {
    let found = -1;
    for (let k = from; k + middle.length <= tail; k++) {
      if (matches(middle, k)) {
        found = k;
        break;
      }
    }
    if (found < 0) out.push(`${where}: ${JSON.stringify(middle).slice(0, 160)} not found in the answer after item ${from}`);
    else from = found + middle.length;
  }
  return out;
}

/** Requests `example` of `app` as a client of http://localhost:9090 would, and checks its status and shown answer. */
export async function runExample(app: FastifyInstance, example: DocExample): Promise<void> {
  const res = await app.inject({ method: 'GET', url: example.url, headers: { host: 'localhost:9090' } });
  const answer = answerOf(res.statusCode, res.headers, res.rawPayload, res.body);
  const where = `${example.file}:${example.line} ${example.url}`;
  assert.equal(answer.status, example.status, `${where}: ${answer.body.slice(0, 300)}`);
  if (example.excerpt === undefined) return;
  assert.notEqual(answer.json, undefined, `${where}: the answer is not JSON`);
  const differences = excerptDifferences(parseExcerpt(example.excerpt), answer.json);
  assert.deepEqual(differences, [], `${where}: the page shows another answer\n${differences.join('\n')}`);
}

