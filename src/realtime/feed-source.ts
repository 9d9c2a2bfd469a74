/**
 * One GTFS-Realtime source: a file path or an HTTP(S) URL, read and decoded on demand. It keeps
 * what an operator needs to see: the last success, the last error, counts of entities and failures.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeFeedMessage, type FeedMessage } from './gtfs-rt.js';

export interface FeedSourceConfig {
  /** a file path, or an http:// or https:// URL */
  url: string;
  /** seconds between two polls (default 30) */
  intervalSec?: number;
  /** request headers (API keys…) for a URL */
  headers?: Record<string, string>;
}

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

export class FeedSource {
  readonly intervalSec: number;
  private readonly state: FeedSourceStatus;

  constructor(readonly config: FeedSourceConfig) {
    this.intervalSec = config.intervalSec ?? 30;
    this.state = { source: config.url, last_success_at: null, last_error: null, last_error_at: null, trip_updates: 0, vehicle_positions: 0, alerts: 0, successes: 0, failures: 0 };
  }

  /** Read and decode the feed; a failure is recorded and thrown again. */
  async read(nowSec = Math.floor(Date.now() / 1000)): Promise<FeedMessage> {
    try {
      const message = decodeFeedMessage(await this.bytes());
      Object.assign(this.state, {
        last_success_at: nowSec,
        successes: this.state.successes + 1,
        trip_updates: message.entities.filter((e) => e.tripUpdate).length,
        vehicle_positions: message.entities.filter((e) => e.vehicle).length,
        alerts: message.entities.filter((e) => e.alert).length,
      });
      return message;
    } catch (e) {
      Object.assign(this.state, { last_error: (e as Error).message, last_error_at: nowSec, failures: this.state.failures + 1 });
      throw e;
    }
  }

  status(): FeedSourceStatus {
    return { ...this.state };
  }

  private async bytes(): Promise<Uint8Array> {
    if (!isUrl(this.config.url)) return readFile(this.config.url);
    const res = await fetch(this.config.url, { headers: this.config.headers ?? {}, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${this.config.url}`);
    return new Uint8Array(await res.arrayBuffer());
  }
}
