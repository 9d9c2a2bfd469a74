/**
 * One GTFS-Realtime source: a file path or an HTTP(S) URL, read and decoded on demand. It keeps
 * what an operator needs to see: the last success, the last error, counts of entities and failures.
 *
 * A body is read as it streams in and refused as soon as it passes `maxBytes` (after decompression:
 * what would be held), or when its Content-Length announces more; it is then decoded a slice at a
 * time, so that a large feed does not hold the event loop.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { decodeFeedMessageInSlices, type FeedMessage } from './gtfs-rt.js';

export interface FeedSourceConfig {
  /** a file path, or an http:// or https:// URL */
  url: string;
  /** seconds between two polls (default 30) */
  intervalSec?: number;
  /** request headers (API keys…) for a URL */
  headers?: Record<string, string>;
  /** largest body accepted, in bytes (default DEFAULT_MAX_FEED_BYTES) */
  maxBytes?: number;
}

/** Largest realtime body accepted by default: real feeds of a whole region weigh a few megabytes. */
export const DEFAULT_MAX_FEED_BYTES = 64 << 20;

/** A body over its source's `maxBytes`. */
export class FeedTooLarge extends Error {}

export interface FeedSourceStatus {
  source: string;
  last_success_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
  /** entities of the last good message, by kind */
  trip_updates: number;
  vehicle_positions: number;
  alerts: number;
  successes: number;
  failures: number;
}

const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/** A source as written in a configuration: a URL as it is, a path resolved against `dir`. */
export function sourceLocation(location: string, dir: string): string {
  return isUrl(location) ? location : path.resolve(dir, location);
}

/** How long a URL may take to answer. */
const FETCH_TIMEOUT_MS = 10_000;

/** A good read: the decoded message and its bytes, or 'unchanged' when the bytes are those of the last good read. */
export type FeedRead = { message: FeedMessage; bytes: Uint8Array } | 'unchanged';

export class FeedSource {
  readonly intervalSec: number;
  readonly maxBytes: number;
  private readonly state: FeedSourceStatus;
  private lastGoodBytes: Uint8Array | undefined;

  constructor(readonly config: FeedSourceConfig) {
    this.intervalSec = config.intervalSec ?? 30;
    this.maxBytes = config.maxBytes ?? DEFAULT_MAX_FEED_BYTES;
    this.state = { source: config.url, last_success_at: null, last_error: null, last_error_at: null, trip_updates: 0, vehicle_positions: 0, alerts: 0, successes: 0, failures: 0 };
  }

  /**
   * Read and decode the feed; a failure is recorded and thrown again. Bytes equal to those of the
   * last good read are not decoded again: 'unchanged' (a feed polled more often than it is updated
   * costs a comparison of its bytes, not a decoding).
   */
  async read(nowSec = Math.floor(Date.now() / 1000)): Promise<FeedRead> {
    try {
      const bytes = await this.bytes();
      if (this.lastGoodBytes && Buffer.compare(bytes, this.lastGoodBytes) === 0) {
        Object.assign(this.state, { last_success_at: nowSec, successes: this.state.successes + 1 });
        return 'unchanged';
      }
      const message = await decodeFeedMessageInSlices(bytes);
      Object.assign(this.state, {
        last_success_at: nowSec,
        successes: this.state.successes + 1,
        trip_updates: message.entities.filter((e) => e.tripUpdate).length,
        vehicle_positions: message.entities.filter((e) => e.vehicle).length,
        alerts: message.entities.filter((e) => e.alert).length,
      });
      this.lastGoodBytes = bytes;
      return { message, bytes };
    } catch (e) {
      Object.assign(this.state, { last_error: (e as Error).message, last_error_at: nowSec, failures: this.state.failures + 1 });
      throw e;
    }
  }

  status(): FeedSourceStatus {
    return { ...this.state };
  }

  private async bytes(): Promise<Uint8Array> {
    const tooLarge = (what: string) => new FeedTooLarge(`${what} over the source's limit of ${this.maxBytes} bytes (maxBytes): refused`);
    if (!isUrl(this.config.url)) {
      const handle = await open(this.config.url, 'r');
      try {
        const size = (await handle.stat()).size;
        if (size > this.maxBytes) throw tooLarge(`${size} bytes,`);
        const bytes = Buffer.alloc(size);
        await handle.read(bytes, 0, size, 0);
        return bytes;
      } finally {
        await handle.close();
      }
    }
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(new Error(`no answer from ${this.config.url} within ${FETCH_TIMEOUT_MS} ms`)), FETCH_TIMEOUT_MS);
    try {
      const res = await fetch(this.config.url, { headers: this.config.headers ?? {}, signal: abort.signal });
      if (!res.ok) throw new Error(`HTTP ${res.status} from ${this.config.url}`);
      const announced = Number(res.headers.get('content-length'));
      // an encoded body may decode to more: its own length bounds nothing but itself
      if (!res.headers.get('content-encoding') && announced > this.maxBytes) {
        abort.abort();
        throw tooLarge(`a body of ${announced} bytes announced,`);
      }
      const parts: Uint8Array[] = [];
      let total = 0;
      for await (const part of res.body ?? []) {
        total += part.byteLength;
        if (total > this.maxBytes) {
          abort.abort();
          throw tooLarge(`more than ${total - part.byteLength} bytes received,`);
        }
        parts.push(part);
      }
      return Buffer.concat(parts, total);
    } finally {
      clearTimeout(timeout);
    }
  }
}
