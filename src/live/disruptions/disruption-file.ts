/**
 * The disruptions file: planned disruptions (and tags for ServiceAlerts) written by hand or by a
 * tool, in our own JSON format (docs/realtime-and-disruptions.md, "Disruptions"):
 *
 *   { "disruptions": [ { "id": "works-b1", "tags": ["works"], "cause": "roadworks",
 *       "severity": { "name": "blocking", "effect": "NO_SERVICE", "color": "#ff0000", "priority": 10 },
 *       "application_periods": [ { "begin": "20240115T000000", "end": "20240115T235959" } ],
 *       "messages": [ { "text": "No buses on line 1", "channel": { "id": "web", "name": "web" } } ],
 *       "impacted_objects": [ { "type": "line", "id": "B1" } ],
 *       "updated_at": "20240110T120000" } ] }
 *
 * Only `id` is required. A file that is not a JSON object with a `disruptions` array is unusable
 * (DisruptionFileError, naming the file); a bad entry is reported with its index and id and skipped;
 * an impacted object the coverage does not know is reported and skipped, its disruption kept.
 */
import type { Caption } from '../../ptref/object-types.js';
import type { Referential } from '../../ptref/referential.js';
import { DatetimeParseError, parseDatetimeParam } from '../../util/api-datetime.js';
import { workerAnswer } from '../../util/worker-answer.js';
import { DEFAULT_PLANNED_RUNS_BUDGET } from './planned-runs.js';
import { ALWAYS, EFFECTS, IMPACTED_TYPES, type Channel, type Disruption, type Effect, type ImpactedObject, type ImpactedType, type Message, type Period } from './disruption.js';

export class DisruptionFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DisruptionFileError';
  }
}

/** What a disruptions file may hold; a coverage's `disruptions` settings override them. */
export interface DisruptionFileLimits {
  /** largest file, bytes */
  maxBytes: number;
  /** most entries */
  maxDisruptions: number;
  /** most impacted objects of one entry (beyond, the entry is skipped) */
  maxImpactedObjects: number;
  /** most application periods of one entry (beyond, the entry is skipped) */
  maxApplicationPeriods: number;
  /** most steps expanding the NO_SERVICE disruptions into runs (planned-runs.ts; beyond, the file is refused) */
  maxExpansionSteps: number;
}

export const DEFAULT_DISRUPTION_FILE_LIMITS: DisruptionFileLimits = {
  // a region's planned works for a year are a few thousand entries, a few megabytes
  maxBytes: 32 << 20,
  maxDisruptions: 50_000,
  maxImpactedObjects: 10_000,
  // a closure every hour of a year is 8,760 periods
  maxApplicationPeriods: 10_000,
  maxExpansionSteps: DEFAULT_PLANNED_RUNS_BUDGET.maxSteps,
};

export interface ParsedDisruptions {
  disruptions: Disruption[];
  /** one line per skipped entry or object: "<file>: disruptions[i] (id "x"): reason" */
  problems: string[];
}

export const DEFAULT_CHANNEL: Channel = { id: 'web', name: 'web', content_type: 'text/plain', types: ['web'] };

/** An entry that cannot be used: its reason. */
class EntryError extends Error {}

type Json = Record<string, unknown>;

/** The disruptions of a file's text; `file` names it in messages, datetimes are read in `timeZone`. */
export function parseDisruptionFile(text: string, file: string, ref: Referential, timeZone: string, limits: DisruptionFileLimits = DEFAULT_DISRUPTION_FILE_LIMITS): ParsedDisruptions {
  const reader = new EntryReader(file, ref, timeZone, limits);
  disruptionEntries(text, file, limits).forEach((entry, i) => reader.read(entry, i));
  return reader.out;
}

/**
 * `parseDisruptionFile` off the event loop: the text is parsed in a worker thread, which hands back
 * each entry as its own JSON text; the entries are then read a few milliseconds at a time. The same
 * disruptions, problems and errors.
 */
export async function parseDisruptionFileInSlices(text: string, file: string, ref: Referential, timeZone: string, limits: DisruptionFileLimits = DEFAULT_DISRUPTION_FILE_LIMITS): Promise<ParsedDisruptions> {
  const entries = await entriesInWorker(text, file, limits);
  const reader = new EntryReader(file, ref, timeZone, limits);
  let sliceStart = performance.now();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (typeof entry === 'string') reader.read(JSON.parse(entry), i);
    else reader.skipOversize(entry, i);
    if (i % 64 === 63 && performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return reader.out;
}

/** How long entries are read before the event loop gets a turn. */
const SLICE_MS = 4;

/** The entries of a file's text (the array under "disruptions"); throws DisruptionFileError when the file is unusable. */
export function disruptionEntries(text: string, file: string, limits: DisruptionFileLimits): unknown[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DisruptionFileError(`${file}: not JSON: ${(e as Error).message}`);
  }
  if (!isObject(raw) || !Array.isArray(raw['disruptions'])) throw new DisruptionFileError(`${file}: expected an object with a "disruptions" array`);
  const entries = raw['disruptions'] as unknown[];
  if (entries.length > limits.maxDisruptions) throw new DisruptionFileError(`${file}: ${entries.length} disruptions, more than the ${limits.maxDisruptions} allowed (disruptions.maxDisruptions): refused`);
  return entries;
}

/** An entry too large to be read: its id, and why. */
export interface OversizeEntry {
  id: string | undefined;
  reason: string;
}

/**
 * Why an entry is too large to be read, if it is: more impacted objects or application periods than
 * the limits allow. Checked in the worker thread too, so the main thread never parses such an entry.
 */
export function oversizeReason(entry: unknown, limits: DisruptionFileLimits): string | undefined {
  if (!isObject(entry)) return undefined;
  const impacted = entry['impacted_objects'];
  if (Array.isArray(impacted) && impacted.length > limits.maxImpactedObjects) {
    return `${impacted.length} impacted objects, more than the ${limits.maxImpactedObjects} allowed (disruptions.maxImpactedObjects)`;
  }
  const periods = entry['application_periods'];
  if (Array.isArray(periods) && periods.length > limits.maxApplicationPeriods) {
    return `${periods.length} application periods, more than the ${limits.maxApplicationPeriods} allowed (disruptions.maxApplicationPeriods)`;
  }
  return undefined;
}

export const entryId = (entry: unknown): string | undefined => (isObject(entry) && typeof entry['id'] === 'string' ? entry['id'] : undefined);

/** The entries of `text`, parsed in a worker thread (disruption-entries-worker.ts): each as its JSON text, or why it is too large. */
async function entriesInWorker(text: string, file: string, limits: DisruptionFileLimits): Promise<(string | OversizeEntry)[]> {
  let answer: { entries?: (string | OversizeEntry)[]; error?: string };
  try {
    answer = await workerAnswer(new URL('./disruption-entries-worker.js', import.meta.url), { text, file, limits });
  } catch (e) {
    throw new DisruptionFileError(`${file}: ${(e as Error).message}`);
  }
  if (answer.entries) return answer.entries;
  throw new DisruptionFileError(answer.error ?? `${file}: could not be read`);
}

/** Reads entries one by one into `out`, keeping the ids seen. */
class EntryReader {
  readonly out: ParsedDisruptions = { disruptions: [], problems: [] };
  private readonly seen = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly ref: Referential,
    private readonly timeZone: string,
    private readonly limits: DisruptionFileLimits,
  ) {}

  read(entry: unknown, i: number): void {
    const { out, seen, limits } = this;
    const id = entryId(entry);
    const where = this.where(i, id);
    try {
      if (!isObject(entry)) throw new EntryError('not an object');
      if (!id) throw new EntryError('"id" must be a non-empty string');
      if (seen.has(id)) throw new EntryError('this id is already used by an earlier entry');
      const oversize = oversizeReason(entry, limits);
      if (oversize) throw new EntryError(oversize);
      const disruption = readEntry(entry, id, this.ref, this.timeZone, (reason) => out.problems.push(`${where}: ${reason}`));
      seen.add(id);
      out.disruptions.push(disruption);
    } catch (e) {
      if (!(e instanceof EntryError)) throw e;
      out.problems.push(`${where}: ${e.message}, skipped`);
    }
  }

  /** An entry the worker found too large, skipped unread. */
  skipOversize(entry: OversizeEntry, i: number): void {
    this.out.problems.push(`${this.where(i, entry.id)}: ${entry.reason}, skipped`);
  }

  private where(i: number, id: string | undefined): string {
    return `${this.file}: disruptions[${i}]${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}`;
  }
}

function readEntry(o: Json, id: string, ref: Referential, timeZone: string, problem: (reason: string) => void): Disruption {
  const severity = optionalObject(o, 'severity');
  const effect = severity?.['effect'] ?? 'UNKNOWN_EFFECT';
  if (typeof effect !== 'string' || !(EFFECTS as readonly string[]).includes(effect)) {
    throw new EntryError(`"severity.effect" must be one of ${EFFECTS.join(', ')}`);
  }
  const priority = severity?.['priority'] ?? 0;
  if (typeof priority !== 'number' || !Number.isInteger(priority)) throw new EntryError('"severity.priority" must be an integer');
  const updatedAt = o['updated_at'];
  if (updatedAt !== undefined && typeof updatedAt !== 'string') throw new EntryError('"updated_at" must be a datetime');
  return {
    id,
    source: 'file',
    tags: stringList(o, 'tags'),
    cause: optionalString(o, 'cause'),
    category: optionalString(o, 'category'),
    severity: {
      name: severity ? optionalString(severity, 'name', 'severity.name') : '',
      effect: effect as Effect,
      color: severity ? optionalString(severity, 'color', 'severity.color') : '',
      priority,
    },
    periods: periods(o['application_periods'], timeZone),
    messages: messages(o['messages']),
    impacted: impactedObjects(o['impacted_objects'], ref, problem),
    updatedAtSec: updatedAt === undefined ? undefined : datetime(updatedAt, timeZone, '"updated_at"'),
  };
}

function periods(v: unknown, timeZone: string): Period[] {
  if (v === undefined) return [ALWAYS];
  if (!Array.isArray(v)) throw new EntryError('"application_periods" must be a list of { "begin", "end" }');
  const out = v.map((p, k) => {
    const what = `"application_periods[${k}]`;
    if (!isObject(p) || typeof p['begin'] !== 'string' || typeof p['end'] !== 'string') throw new EntryError(`${what}" must be { "begin": datetime, "end": datetime }`);
    const begin = datetime(p['begin'], timeZone, `${what}.begin"`);
    const end = datetime(p['end'], timeZone, `${what}.end"`);
    if (end < begin) throw new EntryError(`${what}" ends before it begins`);
    return { begin, end };
  });
  return out.length > 0 ? out : [ALWAYS];
}

function messages(v: unknown): Message[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EntryError('"messages" must be a list of { "text", "channel" }');
  return v.map((m, k) => {
    const what = `messages[${k}]`;
    if (!isObject(m) || typeof m['text'] !== 'string') throw new EntryError(`"${what}.text" must be a string`);
    const c = optionalObject(m, 'channel', `${what}.channel`);
    const channel: Channel = c
      ? {
          id: optionalString(c, 'id', `${what}.channel.id`, DEFAULT_CHANNEL.id),
          name: optionalString(c, 'name', `${what}.channel.name`, DEFAULT_CHANNEL.name),
          content_type: optionalString(c, 'content_type', `${what}.channel.content_type`, DEFAULT_CHANNEL.content_type),
          types: c['types'] === undefined ? [...DEFAULT_CHANNEL.types] : stringList(c, 'types', `${what}.channel.types`),
        }
      : { ...DEFAULT_CHANNEL, types: [...DEFAULT_CHANNEL.types] };
    return { text: m['text'], channel };
  });
}

function impactedObjects(v: unknown, ref: Referential, problem: (reason: string) => void): ImpactedObject[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EntryError('"impacted_objects" must be a list of { "type", "id" }');
  const out: ImpactedObject[] = [];
  const seen = new Set<string>();
  v.forEach((item, k) => {
    const what = `impacted_objects[${k}]`;
    if (!isObject(item) || typeof item['type'] !== 'string' || typeof item['id'] !== 'string') {
      problem(`${what} must be { "type", "id" }, skipped`);
      return;
    }
    const type = item['type'];
    if (!(IMPACTED_TYPES as readonly string[]).includes(type)) {
      problem(`${what}: unknown type ${JSON.stringify(type)} (expected ${IMPACTED_TYPES.join(', ')}), skipped`);
      return;
    }
    const index = ref.indexOf(type as Caption, item['id']);
    if (index < 0) {
      problem(`${what}: no ${type} ${JSON.stringify(item['id'])} in the coverage, skipped`);
      return;
    }
    const key = `${type}:${index}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ type: type as ImpactedType, index });
  });
  return out;
}

function datetime(text: string, timeZone: string, what: string): number {
  try {
    return parseDatetimeParam(text, timeZone);
  } catch (e) {
    if (e instanceof DatetimeParseError) throw new EntryError(`${what} is not a datetime (${e.reason}): ${JSON.stringify(text)}`);
    throw e;
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionalObject(o: Json, key: string, what = key): Json | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new EntryError(`"${what}" must be an object`);
  return v;
}

function optionalString(o: Json, key: string, what = key, fallback = ''): string {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new EntryError(`"${what}" must be a string`);
  return v;
}

function stringList(o: Json, key: string, what = key): string[] {
  const v = o[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new EntryError(`"${what}" must be a list of strings`);
  return [...v] as string[];
}

/**
 * `problems` ("<file>: disruptions[i] (id "x"): reason") as one line per reason, with how many
 * entries gave it and the first of them: a file of 200,000 unknown objects gives one line, not
 * 200,000. At most `maxLines` reasons, the rest counted in a last line.
 */
/** "<file>: disruptions[i] (id "x"): " before a problem's reason. */
const ENTRY_PLACE = /^.*?disruptions\[\d+\](?: \(id "(?:[^"\\]|\\.)*"\))?: (.*)$/s;

export function aggregateProblems(problems: string[], maxLines = 20): string[] {
  const byReason = new Map<string, { count: number; first: string }>();
  for (const p of problems) {
    // the reason is what follows the entry's place; the ids and indexes in it vary, so they are left out
    const reason = (ENTRY_PLACE.exec(p)?.[1] ?? p).replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\[\d+\]/g, '[…]');
    const kept = byReason.get(reason);
    if (kept) kept.count++;
    else byReason.set(reason, { count: 1, first: p });
  }
  const lines: string[] = [];
  for (const [reason, { count, first }] of byReason) {
    if (lines.length === maxLines) break;
    lines.push(count === 1 ? first : `${count} times: ${reason} (first: ${first})`);
  }
  const rest = byReason.size - lines.length;
  if (rest > 0) lines.push(`and ${rest} other kinds of problems`);
  return lines;
}
