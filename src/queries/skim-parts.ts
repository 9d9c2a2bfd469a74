/**
 * The parts of a skim (docs/analysis.md, "Skims"), in the order every output writes them: the API's
 * breakdown, the command's columns and matrices.
 */
import type { JourneyParts } from '../routing/heat-map-types.js';

export const PART_NAMES = ['access', 'wait', 'ride', 'transfer', 'egress', 'rides'] as const satisfies readonly (keyof JourneyParts)[];
