/**
 * What a replica serving one shard of the coverages (`navette serve --only …`) and the nginx in front
 * of it (`navette deploy nginx`) say to each other. The names live here, below both: the generated
 * configuration sets these headers and internal locations, the replica reads and answers them.
 *
 * - `/v1/coverage` is merged by nginx's SSI module: nginx asks one replica with
 *   `x-navette-regions: ssi`; the replica writes its own coverages inline and an SSI include of
 *   `/_navette/region/{id}` for each coverage held elsewhere, which nginx routes to that coverage's
 *   shard with `x-navette-regions: fragment` (the replica then answers the region object alone).
 * - `/v1/coverage/{lon};{lat}/…` goes to the first shard with `x-navette-next-shard` naming the
 *   internal location of the next one; a replica none of whose coverages contains the point answers
 *   `X-Accel-Redirect` to it, and nginx asks that shard the same request. The last shard gets no such
 *   header and answers as a single server does (with "no region" when none contains the point).
 */

/** nginx's header asking a replica for the SSI template of `/v1/coverage` or for one region object. */
export const REGIONS_HEADER = 'x-navette-regions';
export type RegionsMode = 'ssi' | 'fragment';

/** nginx's header naming where a `lon;lat` request goes when no coverage of this shard contains the point. */
export const NEXT_SHARD_HEADER = 'x-navette-next-shard';

/** The prefix of nginx's internal locations (never reachable from outside). */
export const INTERNAL_PREFIX = '/_navette';

/** The internal location that asks shard `index` (in the configuration's order) a `lon;lat` request. */
export const shardLocation = (index: number): string => `${INTERNAL_PREFIX}/shard/${index}`;

/** The internal location that fetches the region object of coverage `id` from its shard. */
export const regionLocation = (id: string): string => `${INTERNAL_PREFIX}/region/${id}`;

/** A value of the next-shard header the replica accepts to echo (nginx's own, nothing else). */
export function nextShardOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\/_navette\/shard\/\d+$/.test(value) ? value : undefined;
}

export function regionsModeOf(header: string | string[] | undefined): RegionsMode | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value === 'ssi' || value === 'fragment' ? value : undefined;
}
