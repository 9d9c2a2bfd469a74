/**
 * OpenStreetMap XML (.osm), streamed: a small tokenizer for the regular shape of OSM files
 * (`<node …/>`, `<node …>…<tag/>…</node>`, `<way>` with `<nd ref/>` and `<tag k v/>`, relations
 * counted), attributes in any order with either quote, XML entities, comments, declarations, and
 * elements split across read chunks.
 */
import { createReadStream } from 'node:fs';
import { OsmExtractBuilder, type OsmExtract } from './osm-extract.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescape(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

const ATTRIBUTE = /([A-Za-z_:][-\w:.]*)\s*=\s*("([^"]*)"|'([^']*)')/g;

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(text); m; m = ATTRIBUTE.exec(text)) out[m[1]!] = unescape(m[3] ?? m[4] ?? '');
  return out;
}

export async function readOsmXml(file: string, options: { highWaterMark?: number } = {}): Promise<OsmExtract> {
  const out = new OsmExtractBuilder();
  let pending = '';
  let line = 1;
  let current: { kind: 'node' | 'way' | 'relation'; id: number; lon: number; lat: number; refs: number[]; tags: Record<string, string> } | null = null;
  const fail = (why: string) => new Error(`${file}:${line}: ${why}`);

  const element = (markup: string) => {
    if (markup.startsWith('<?') || markup.startsWith('<!')) return;
    if (markup.startsWith('</')) {
      const name = markup.slice(2, -1).trim();
      if (current && name === current.kind) {
        finishElement();
        current = null;
      }
      return;
    }
    const selfClosing = markup.endsWith('/>');
    const nameEnd = markup.search(/[\s/>]/);
    if (nameEnd < 0) throw fail(`malformed tag ${markup.slice(0, 40)}`);
    const name = markup.slice(1, nameEnd);
    const attrs = attributes(markup.slice(nameEnd, selfClosing ? -2 : -1));
    switch (name) {
      case 'node':
      case 'way':
      case 'relation': {
        if (current) throw fail(`<${name}> inside <${current.kind}>`);
        const id = numberOf(attrs['id']);
        if (!Number.isFinite(id)) throw fail(`<${name}> without a numeric id`);
        const lon = numberOf(attrs['lon']);
        const lat = numberOf(attrs['lat']);
        if (name === 'node' && (!Number.isFinite(lon) || !Number.isFinite(lat))) throw fail(`node ${id} without lon/lat`);
        current = { kind: name, id, lon, lat, refs: [], tags: {} };
        if (selfClosing) {
          finishElement();
          current = null;
        }
        return;
      }
      case 'nd':
        if (current?.kind === 'way') {
          const ref = numberOf(attrs['ref']);
          if (!Number.isFinite(ref)) throw fail('<nd> without a numeric ref');
          current.refs.push(ref);
        }
        return;
      case 'tag':
        if (current && attrs['k'] !== undefined) current.tags[attrs['k']] = attrs['v'] ?? '';
        return;
      default:
        return;
    }
  };
  const finishElement = () => {
    const c = current!;
    if (c.kind === 'node') out.node(c.id, c.lon, c.lat);
    else if (c.kind === 'way') out.way(c.id, c.refs, c.tags);
    else out.relationsRead++;
  };

  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: options.highWaterMark ?? 1 << 20 });
  for await (const chunk of stream as AsyncIterable<string>) {
    let text = pending + chunk;
    let pos = 0;
    for (;;) {
      const open = text.indexOf('<', pos);
      if (open < 0) {
        countLines(text, pos, text.length);
        pos = text.length;
        break;
      }
      countLines(text, pos, open);
      let close: number;
      if (text.startsWith('<!--', open)) {
        close = text.indexOf('-->', open + 4);
        if (close >= 0) close += 2;
      } else {
        try {
          close = endOfTag(text, open);
        } catch (e) {
          throw fail((e as Error).message); // name the file and the line where the tag opens
        }
      }
      if (close < 0) {
        pos = open;
        break;
      }
      const markup = text.slice(open, close + 1);
      element(markup);
      countLines(text, open, close + 1);
      pos = close + 1;
    }
    pending = text.slice(pos);
    text = '';
  }
  if (pending.trim() !== '') throw fail('unexpected end of file inside a tag');
  if (current) throw fail(`unexpected end of file inside <${(current as { kind: string }).kind}>`);
  return out.finish();

  function countLines(text: string, from: number, to: number): void {
    for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) line++;
  }
}

/** Index of the `>` that closes the tag opened at `open` (quotes may hold `>`), or -1. */
function endOfTag(text: string, open: number): number {
  let quote = '';
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
    else if (c === '<') throw new Error(`malformed XML: '<' inside a tag`);
  }
  return -1;
}

/** An attribute's number; NaN when absent or empty (where Number would say 0). */
function numberOf(value: string | undefined): number {
  return value === undefined || value.trim() === '' ? NaN : Number(value);
}
