/**
 * A token bucket per client (Turner's token bucket, as in RFC 2697's committed burst): each client
 * may send `burst` requests at once, then `ratePerSec` per second. Memory is bounded: clients are
 * kept in least-recently-seen order, a client idle long enough for its bucket to be full again is the
 * same as an unknown one and is dropped as it is met, and past `maxClients` the least recent goes.
 */

export interface TokenBucketOptions {
  /** tokens added per second */
  ratePerSec: number;
  /** bucket size: the requests a client may send at once */
  burst: number;
  /** clients remembered at most (default 10,000) */
  maxClients?: number;
  /** the clock, seconds (tests give their own) */
  nowSec?: () => number;
}

export type TakeResult = { allowed: true } | { allowed: false; retryAfterSec: number };

interface Bucket {
  /** tokens left at `atSec` (fractional) */
  tokens: number;
  atSec: number;
}

/** How many idle clients one `take` looks at for eviction: keeps the cost of a request constant. */
const EVICTIONS_PER_TAKE = 2;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly ratePerSec: number;
  private readonly burst: number;
  private readonly maxClients: number;
  private readonly nowSec: () => number;

  constructor(options: TokenBucketOptions) {
    if (!(options.ratePerSec > 0) || !(options.burst >= 1)) throw new Error('TokenBuckets: ratePerSec must be > 0 and burst >= 1');
    this.ratePerSec = options.ratePerSec;
    this.burst = options.burst;
    this.maxClients = options.maxClients ?? 10_000;
    this.nowSec = options.nowSec ?? (() => performance.now() / 1000);
  }

  /** Clients currently remembered. */
  get size(): number {
    return this.buckets.size;
  }

  /** Take one token from `key`'s bucket, or say in how many whole seconds one will be there. */
  take(key: string): TakeResult {
    const now = this.nowSec();
    const bucket = this.buckets.get(key);
    let tokens = bucket ? this.refilled(bucket, now) : this.burst;
    // move the client to the most recent end of the map
    if (bucket) this.buckets.delete(key);
    this.evictIdle(now);
    let result: TakeResult;
    if (tokens >= 1) {
      tokens -= 1;
      result = { allowed: true };
    } else {
      result = { allowed: false, retryAfterSec: Math.max(1, Math.ceil((1 - tokens) / this.ratePerSec)) };
    }
    this.buckets.set(key, { tokens, atSec: now });
    while (this.buckets.size > this.maxClients) this.buckets.delete(this.buckets.keys().next().value!);
    return result;
  }

  private refilled(bucket: Bucket, now: number): number {
    return Math.min(this.burst, bucket.tokens + (now - bucket.atSec) * this.ratePerSec);
  }

  /** Drop the least recent clients whose bucket is full again (they are as good as unknown). */
  private evictIdle(now: number): void {
    for (let i = 0; i < EVICTIONS_PER_TAKE; i++) {
      const oldest = this.buckets.entries().next();
      if (oldest.done) return;
      const [key, bucket] = oldest.value;
      if (this.refilled(bucket, now) < this.burst) return;
      this.buckets.delete(key);
    }
  }
}
