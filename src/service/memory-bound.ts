/**
 * What a server's resident memory may grow by under load, over what it held loaded and idle (its
 * runtime, its threads', the coverages' timetables and streets): each cache that grows with use, at
 * its bound, on each thread that keeps one, and the heaps' headroom. docs/operating.md ("Memory")
 * writes it out; `npm run bench:soak` holds the server to it.
 */
import { TIME_ZONE_CACHE_BOUND_BYTES } from '../util/time-zones.js';
import { DEFAULT_LIMITS, type Limits } from './limits.js';

/**
 * What a JavaScript heap may hold past its idle size once a load is over, per thread (main and
 * workers), bytes: the garbage the collector has not yet returned, the young generation's room and
 * the pages it keeps. Measured with `npm run bench:soak` (docs/operating.md, "Memory").
 */
export const HEAP_HEADROOM_BYTES = 96 * 2 ** 20;

/** The growth bound, bytes: per worker thread its engine cache and time zones, the main thread's time zones, each heap's headroom. */
export function residentGrowthBound(threads: number, limits: Pick<Limits, 'engineCacheBytes'> = DEFAULT_LIMITS): number {
  return threads * (limits.engineCacheBytes + TIME_ZONE_CACHE_BOUND_BYTES) + TIME_ZONE_CACHE_BOUND_BYTES + (threads + 1) * HEAP_HEADROOM_BYTES;
}

/** The same in megabytes (10^6 bytes, as the benches print memory). */
export function residentGrowthBoundMb(threads: number, limits?: Pick<Limits, 'engineCacheBytes'>): number {
  return residentGrowthBound(threads, limits) / 1e6;
}
