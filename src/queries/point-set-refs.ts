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

/** A point set as requests name it: its name and its opportunity columns' (the loaded set's, or what its file says before the load). */
export interface NamedSet {
  name: string;
  columns: readonly { name: string }[];
}

/** The coverage's point sets, by name. */
const setsOf = (g: Generation): readonly NamedSet[] => g.streets?.pointSets ?? [];

/** The point sets as a sentence, for the errors. */
function knownSets(sets: readonly NamedSet[]): string {
  if (sets.length === 0) return 'no point sets';
  return sets.map((set) => `${set.name} (${set.columns.map((c) => c.name).join(', ')})`).join(', ');
}

/** The index of the point set `name` (the parameter `param` gave it). */
export function pointSetIndex(g: Generation, param: string, name: string): number {
  return setIndexIn(setsOf(g), param, name);
}

/** The index of the point set `name` among `sets`. */
export function setIndexIn(sets: readonly NamedSet[], param: string, name: string): number {
  const index = sets.findIndex((set) => set.name === name);
  if (index < 0) throw refuse('unknownPointSet', { param, given: name, known: knownSets(sets) });
  return index;
}

/** `opportunities[]=SET:COLUMN`, each resolved. */
export function opportunityRefs(g: Generation, given: readonly string[]): OpportunityRef[] {
  return opportunityRefsIn(setsOf(g), given);
}

/** `opportunities[]=SET:COLUMN`, each resolved among `sets`. */
export function opportunityRefsIn(sets: readonly NamedSet[], given: readonly string[]): OpportunityRef[] {
  return given.map((label) => {
    const at = label.lastIndexOf(':');
    const set = at > 0 ? sets.findIndex((s) => s.name === label.slice(0, at)) : -1;
    const column = set >= 0 ? sets[set]!.columns.findIndex((c) => c.name === label.slice(at + 1)) : -1;
    if (column < 0) throw refuse('unknownOpportunities', { given: label, known: knownSets(sets) });
    return { set, column, label };
  });
}

/** How many unknown ids a refusal quotes: past them, how many more. */
const QUOTED_IDS = 10;

/** Some points of a set, in a request's order: their ids, and their indices in the set (null: every point, in the set's order). */
export interface SelectedPoints {
  ids: string[];
  indices: Int32Array | null;
}

/**
 * The points of set `set` that `given` names (the parameter `param`: `origin_ids[]`), in the order
 * given; every point of the set when none is given. An id the set does not hold is refused by name,
 * and so is an id given twice (a row or column twice would be the same one computed twice).
 */
export function selectPoints(g: Generation, set: number, param: string, given: readonly string[]): SelectedPoints {
  const info = g.streets!.pointSets[set]!;
  if (given.length === 0) return { ids: info.ids, indices: null };
  const at = new Map(info.ids.map((id, k) => [id, k]));
  const unknown = given.filter((id) => !at.has(id));
  if (unknown.length > 0) {
    const more = unknown.length > QUOTED_IDS ? ` and ${unknown.length - QUOTED_IDS} more` : '';
    throw refuse('unknownPointIds', { param, set: info.name, given: unknown.slice(0, QUOTED_IDS).join(', ') + more });
  }
  const seen = new Set<string>();
  for (const id of given) {
    if (seen.has(id)) throw refuse('repeatedPointId', { param, id });
    seen.add(id);
  }
  return { ids: [...given], indices: Int32Array.from(given, (id) => at.get(id)!) };
}

/** The values of `values` (one per point of a set) at the selected points, in their order. */
export function atSelected<T extends ArrayLike<number>>(values: T, indices: Int32Array | null): T | Float64Array {
  return indices === null ? values : Float64Array.from(indices, (k) => values[k]!);
}
