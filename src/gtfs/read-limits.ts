/**
 * Bounds on what reading a GTFS feed may cost, so that a damaged or hostile file (a zip bomb, a
 * file without line ends) fails its coverage with a clear message instead of filling the memory or
 * the hours: a coverage's `readLimits` in the configuration overrides them.
 */
export interface ReadLimits {
  /** Longest line of a GTFS file, in bytes. */
  maxLineBytes: number;
  /** Most bytes a zip entry may inflate to, per byte stored (up to `inflateAllowanceBytes` always pass). */
  maxInflateRatio: number;
  /** Bytes any zip entry may inflate to, whatever its ratio (a small file of repeated rows). */
  inflateAllowanceBytes: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  // real lines are under a kilobyte; a shape or a note of a few hundred kilobytes still passes
  maxLineBytes: 1 << 20,
  // GTFS text deflates 5 to 20 times; deflate itself cannot pass about 1,030
  maxInflateRatio: 200,
  inflateAllowanceBytes: 64 << 20,
};

/** `limits` with the defaults where it says nothing. */
export function readLimitsOf(limits: Partial<ReadLimits> = {}): ReadLimits {
  return { ...DEFAULT_READ_LIMITS, ...limits };
}
