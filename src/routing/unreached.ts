/** The cost or time of a place a search has not reached: above every real one (the largest int32, so that typed arrays hold it). */
export const UNREACHED = 0x7fffffff;
