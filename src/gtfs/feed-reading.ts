/** What a reader of one file family is given: the feed, its id maps, and where to report. */
import type { FeedSource } from './feed-source.js';

/** Per-feed id maps: feed-local id -> global index. */
export interface FeedIds {
  agencies: Map<string, number>;
  stops: Map<string, number>;
  stations: Map<string, number>;
  zones: Map<string, number>;
  lines: Map<string, number>;
  services: Map<string, number>;
  trips: Map<string, number>;
  bookingRules: Set<string>;
}

export interface FeedReading {
  source: FeedSource;
  /** index of the feed in the coverage */
  feed: number;
  ids: FeedIds;
  /** `<feed file name>/<name>`, for messages */
  file: (name: string) => string;
  /** the progress callback of a file: bytes read */
  on: (name: string) => (n: number) => void;
}
