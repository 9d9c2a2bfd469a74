/**
 * The answers of HTTP requests as the suites read them, whether the request went through
 * `app.inject` (test/helpers/app.ts) or over the network to a server in its own process (`fetch`,
 * here): the status, the headers, the body as text and parsed when it is JSON. And `until`, which
 * reads something again until it is as expected, for what a server applies in the background.
 */
import assert from 'node:assert/strict';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** the parsed JSON body (undefined when the body is not JSON) */
  json: any;
  /** the body as text (UTF-8) */
  body: string;
  /** the body's bytes (images, compressed bodies) */
  raw: Buffer;
}

/** The answer of a status, headers and body; `json` parsed from the text when it is JSON. */
export function answerOf(status: number, headers: Answer['headers'], raw: Buffer, body = raw.toString('utf8')): Answer {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status, headers, json, body, raw };
}

/** Fails, naming `what`, when the body of the answer is not JSON. */
export function assertJson(a: Answer, what: string): Answer {
  assert.notEqual(a.json, undefined, `${what}: the body is not JSON (${a.status}): ${a.body.slice(0, 300)}`);
  return a;
}

/** `fetch(url, init)` read whole. */
export async function fetchAnswer(url: string, init?: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  return answerOf(res.status, Object.fromEntries(res.headers), Buffer.from(await res.arrayBuffer()));
}

/** `fetchAnswer`, failing when the body is not JSON. */
export async function fetchJson(url: string, init?: RequestInit): Promise<Answer> {
  return assertJson(await fetchAnswer(url, init), url);
}

export interface UntilOptions {
  /** how long to read again, 30 s by default: a bound on a hang, not a measure of speed (a loaded machine is slow) */
  timeoutMs?: number;
  /** the pause between two reads, 100 ms by default */
  intervalMs?: number;
}

/**
 * Reads `read()` again until `ok` holds of its value or `timeoutMs` have passed, and returns the
 * last value read: the caller asserts on it, so a timeout fails there, with the value to see.
 */
export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean = Boolean, options: UntilOptions = {}): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    value = await read();
  }
  return value;
}

/**
 * Navitia's `error` object of an answer, without our `details` (tests of Navitia's wire contract
 * compare this; test/unit/api/error-details.test.ts checks the details themselves).
 */
export function navitiaError(error: { id: string; message: string; details?: string }): { id: string; message: string } {
  const { details: _details, ...navitia } = error;
  return navitia;
}

/** An error body without our `error.details`: what Navitia answers. */
export function withoutDetails<T extends { error?: { id: string; message: string; details?: string } }>(body: T): T {
  return body.error ? { ...body, error: navitiaError(body.error) } : body;
}
