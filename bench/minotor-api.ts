/**
 * minotor, the RAPTOR library bench/raptor.ts compares with, lives outside the project's dependencies:
 * it declares Node ≥ 21.1, and as a dependency of ours it made `npm ci` warn on the Node we support.
 * `npm run bench:raptor` installs it in `bench/minotor/` (its own package.json and lockfile, pinned
 * to 1.0.7) and this module loads it from there. Below, the part of its API the bench uses.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface MinotorTime {
  toSeconds(): number;
}
interface StopsIndex {
  findStopById(id: string): unknown;
}
export interface MinotorResult {
  earliestArrivalsPerRound: Map<string | number, { time: MinotorTime }>[];
}
interface MinotorQuery {
  readonly _query: unique symbol;
}
export interface Minotor {
  Router: new (timetable: unknown, stops: StopsIndex) => { route(query: MinotorQuery): MinotorResult };
  Query: {
    Builder: new () => { from(stop: string): MinotorQueryBuilder };
  };
  Time: { fromHMS(h: number, m: number, s: number): MinotorTime };
}
interface MinotorQueryBuilder {
  to(stops: string[]): MinotorQueryBuilder;
  departureTime(time: MinotorTime): MinotorQueryBuilder;
  maxTransfers(n: number): MinotorQueryBuilder;
  build(): MinotorQuery;
}
export interface MinotorParser {
  GtfsParser: new (
    feed: string,
    profile: { routeTypeParser: (type: number) => string | undefined },
  ) => { parse(day: Date): Promise<{ timetable: unknown; stopsIndex: StopsIndex }> };
}

/** minotor and its parser from bench/minotor/node_modules (rejects when it is not installed). */
export async function loadMinotor(): Promise<{ minotor: Minotor; parser: MinotorParser }> {
  // its CommonJS build does not load (a .js file in a "type": "module" package): the ES one, by path
  const entry = (file: string) => pathToFileURL(path.resolve('bench/minotor/node_modules/minotor/dist', file)).href;
  const [minotor, parser] = await Promise.all([import(entry('router.esm.js')), import(entry('parser.esm.js'))]);
  return { minotor: minotor as Minotor, parser: parser as MinotorParser };
}
