/** A request's names of point sets and their columns, resolved against the coverage's point sets. */
import type { Generation } from '../service/generation.js';
import { refuse } from './query-errors.js';

/** One opportunity column of one point set: `opportunities[]=SET:COLUMN`. */
export interface OpportunityRef {
  /** index in the coverage's point sets, and of the column in the set */
  set: number;
  column: number;
  /** as the request wrote it: SET:COLUMN */
  label: string;
}

/** The coverage's point sets as a sentence, for the errors. */
function knownSets(g: Generation): string {
  const sets = g.streets?.pointSets ?? [];
  if (sets.length === 0) return 'no point sets';
  return sets.map((set) => `${set.name} (${set.columns.map((c) => c.name).join(', ')})`).join(', ');
}

/** The index of the point set `name` (the parameter `param` gave it). */
export function pointSetIndex(g: Generation, param: string, name: string): number {
  const index = (g.streets?.pointSets ?? []).findIndex((set) => set.name === name);
  if (index < 0) throw refuse('unknownPointSet', { param, given: name, known: knownSets(g) });
  return index;
}

/** `opportunities[]=SET:COLUMN`, each resolved. */
export function opportunityRefs(g: Generation, given: readonly string[]): OpportunityRef[] {
  const sets = g.streets?.pointSets ?? [];
  return given.map((label) => {
    const at = label.lastIndexOf(':');
    const set = at > 0 ? sets.findIndex((s) => s.name === label.slice(0, at)) : -1;
    const column = set >= 0 ? sets[set]!.columns.findIndex((c) => c.name === label.slice(at + 1)) : -1;
    if (column < 0) throw refuse('unknownOpportunities', { given: label, known: knownSets(g) });
    return { set, column, label };
  });
}
