/**
 * OpenStreetMap XML (.osm), streamed: a small tokenizer for the regular shape of OSM files
 * (`<node …/>`, `<node …>…<tag/>…</node>`, `<way>` with `<nd ref/>` and `<tag k v/>`, relations
 * counted), attributes in any order with either quote, XML entities, comments, declarations, and
 * elements split across read chunks.
 */
import { createReadStream } from 'node:fs';
import { OsmExtractBuilder, type OsmExtract, type OsmReadOptions, type RelationMember } from './osm-extract.js';

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

export async function readOsmXml(file: string, options: OsmReadOptions & { highWaterMark?: number } = {}): Promise<OsmExtract> {
  const parser = new OsmXmlParser(file, new OsmExtractBuilder(options));
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: options.highWaterMark ?? 1 << 20 });
  for await (const chunk of stream as AsyncIterable<string>) parser.read(chunk);
  return parser.end();
}

/** A node, way or relation whose start tag was read and whose end tag was not yet. */
interface OpenElement {
  kind: 'node' | 'way' | 'relation';
  id: number;
  lon: number;
  lat: number;
  refs: number[];
  tags: Record<string, string>;
  /** a relation's way members */
  members: RelationMember[];
}

/** The state of one file's reading: the tag cut by the end of the last chunk, the line, the open element. */
class OsmXmlParser {
  /** the start of a tag that the last chunk cut, read again with the next chunk */
  private pending = '';
  /** the line being read, for the errors */
  private line = 1;
  private current: OpenElement | null = null;

  constructor(
    private readonly file: string,
    private readonly out: OsmExtractBuilder,
  ) {}

  /** Every whole tag of the pending text and `chunk` read; the last one, when cut, kept for the next chunk. */
  read(chunk: string): void {
    const text = this.pending + chunk;
    let pos = 0;
    for (;;) {
      const open = text.indexOf('<', pos);
      if (open < 0) {
        this.countLines(text, pos, text.length);
        pos = text.length;
        break;
      }
      this.countLines(text, pos, open);
      const close = this.endOfMarkup(text, open);
      if (close < 0) {
        pos = open;
        break;
      }
      this.markup(text.slice(open, close + 1));
      this.countLines(text, open, close + 1);
      pos = close + 1;
    }
    this.pending = text.slice(pos);
  }

  /** The extract, once the whole file is read (and every element closed). */
  end(): OsmExtract {
    if (this.pending.trim() !== '') throw this.fail('unexpected end of file inside a tag');
    if (this.current) throw this.fail(`unexpected end of file inside <${this.current.kind}>`);
    return this.out.finish();
  }

  /** Index of the last character of the comment or tag opened at `open`, or -1 when the text ends first. */
  private endOfMarkup(text: string, open: number): number {
    if (text.startsWith('<!--', open)) {
      const close = text.indexOf('-->', open + 4);
      return close >= 0 ? close + 2 : close;
    }
    try {
      return endOfTag(text, open);
    } catch (e) {
      throw this.fail((e as Error).message); // name the file and the line where the tag opens
    }
  }

  /** One tag, comment or declaration (the last two skipped). */
  private markup(markup: string): void {
    if (markup.startsWith('<?') || markup.startsWith('<!')) return;
    if (markup.startsWith('</')) {
      this.endTag(markup.slice(2, -1).trim());
      return;
    }
    const selfClosing = markup.endsWith('/>');
    const nameEnd = markup.search(/[\s/>]/);
    if (nameEnd < 0) throw this.fail(`malformed tag ${markup.slice(0, 40)}`);
    const name = markup.slice(1, nameEnd);
    const attrs = attributes(markup.slice(nameEnd, selfClosing ? -2 : -1));
    switch (name) {
      case 'node':
      case 'way':
      case 'relation':
        this.startElement(name, attrs, selfClosing);
        return;
      case 'nd':
        if (this.current?.kind === 'way') this.current.refs.push(this.nodeRef(attrs));
        return;
      case 'member':
        if (this.current?.kind === 'relation' && attrs['type'] === 'way') this.current.members.push({ ref: this.memberRef(attrs), role: attrs['role'] ?? '' });
        return;
      case 'tag':
        if (this.current && attrs['k'] !== undefined) this.current.tags[attrs['k']] = attrs['v'] ?? '';
        return;
      default:
        return;
    }
  }

  /** A node, way or relation opened (and closed at once when its tag is self-closing). */
  private startElement(kind: OpenElement['kind'], attrs: Record<string, string>, selfClosing: boolean): void {
    if (this.current) throw this.fail(`<${kind}> inside <${this.current.kind}>`);
    const id = numberOf(attrs['id']);
    if (!Number.isFinite(id)) throw this.fail(`<${kind}> without a numeric id`);
    const lon = numberOf(attrs['lon']);
    const lat = numberOf(attrs['lat']);
    if (kind === 'node' && (!Number.isFinite(lon) || !Number.isFinite(lat))) throw this.fail(`node ${id} without lon/lat`);
    this.current = { kind, id, lon, lat, refs: [], tags: {}, members: [] };
    if (selfClosing) this.closeElement();
  }

  /** An end tag: it closes the open element of its name (others are ignored). */
  private endTag(name: string): void {
    if (this.current && name === this.current.kind) this.closeElement();
  }

  /** The open element handed to the extract builder. */
  private closeElement(): void {
    const c = this.current!;
    if (c.kind === 'node') {
      this.out.node(c.id, c.lon, c.lat);
      if (this.out.wantsNodeTags && Object.keys(c.tags).length > 0) this.out.taggedNode(c.lon, c.lat, c.tags);
    } else if (c.kind === 'way') this.out.way(c.id, c.refs, c.tags);
    else if (this.out.wantsRelations) this.out.relation(c.members, c.tags);
    else this.out.relationsRead++;
    this.current = null;
  }

  /** The way id of a relation's `<member type="way" ref>`. */
  private memberRef(attrs: Record<string, string>): number {
    const ref = numberOf(attrs['ref']);
    if (!Number.isFinite(ref)) throw this.fail('<member> without a numeric ref');
    return ref;
  }

  /** The node id of an `<nd ref>`. */
  private nodeRef(attrs: Record<string, string>): number {
    const ref = numberOf(attrs['ref']);
    if (!Number.isFinite(ref)) throw this.fail('<nd> without a numeric ref');
    return ref;
  }

  private countLines(text: string, from: number, to: number): void {
    for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) this.line++;
  }

  private fail(why: string): Error {
    return new Error(`${this.file}:${this.line}: ${why}`);
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
