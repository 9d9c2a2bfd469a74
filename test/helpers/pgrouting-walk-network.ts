/**
 * An OpenStreetMap extract as pgRouting's walking network: a street router that shares nothing with
 * ours, to measure our heat maps against (issue 25). One throw-away PostgreSQL cluster per test
 * process (test/helpers/throwaway-postgres.ts), one database per extract, loaded once and kept for
 * the process (`openWalkNetwork` caches it by file); `closeWalkNetworks()` stops the cluster.
 *
 * Loading: `osmium cat` turns the PBF into OSM XML (osm2pgrouting reads XML only), osm2pgrouting
 * imports it with our own map configuration (WALKABLE_HIGHWAYS; with the ways' tags, for the access
 * rule below), then the ways closed to walkers are deleted, and each edge gets a metric copy of its
 * geometry in the extract's UTM zone, with a GiST index, for linking points.
 *
 * The walking model (ours, written for this instrument; not the engine's):
 *
 *   - Ways: every highway class a walker may use by OpenStreetMap's default access, from tracks and
 *     service roads to footways, steps, platforms and trunk roads; motorways, their links, and what
 *     is not a way yet (proposed, construction) are not imported. Then removed: motor roads
 *     (`motorroad=yes`, barred to walkers by law), `foot=private`, and `access=no` or `private`
 *     unless a `foot` tag lets walkers on (yes, designated, permissive, destination).
 *   - `foot=no` (and `use_sidepath`) marks a road whose walkers use a sidewalk or a path beside it.
 *     Where the extract maps walkways (any footway, path, pedestrian way or steps: Porto Alegre's
 *     does) such roads are removed, and walkers take the paths mapped; where it maps none
 *     (rnv-mannheim's holds car roads only) the road is the only trace of its sidewalk, as long as
 *     it, and is kept. One rule per extract, on purpose simpler than the engine's road by road.
 *   - One piece: only the largest connected part of those ways is kept. The fragments joined to
 *     nothing else (a courtyard's paths, a way cut at the extract's edge, a platform drawn alone)
 *     would leave a point linked to them with nowhere to go; without them it is linked to the
 *     nearest street that leads somewhere (its offset then crosses what the extract lacks).
 *   - Undirected: every edge costs its length in metres (osm2pgrouting's `length_m`, on the
 *     ellipsoid) in both directions (`cost` = `reverse_cost` = `length_m`, `directed => false`): a
 *     one-way street is one-way for vehicles only.
 *   - A point (lon, lat) is linked to its nearest edge: PostGIS's KNN (`<->`) on the metric
 *     geometry, `ST_LineLocatePoint` for its closest point on the edge, the fraction of the edge's
 *     length (on the ellipsoid, as `length_m`) before that point, and its off-street offset, the
 *     geography distance from the point to the closest point, in metres.
 *   - A walk between two linked points: the first one's offset, pgRouting's shortest distance along
 *     the network between the two positions on their edges (`pgr_withPointsCost` from one point;
 *     `pgr_withPointsDD` from many, bounded), and the second one's offset. The same rule as our
 *     engine's: the off-street link of each end is walked straight.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { SUPERUSER, startPostgres, type ThrowawayPostgres } from './throwaway-postgres.js';

/** The highway values imported (osm2pgrouting's map configuration: a value and an arbitrary id each). */
export const WALKABLE_HIGHWAYS = [
  'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary', 'tertiary_link',
  'unclassified', 'residential', 'living_street', 'road', 'service', 'track', 'pedestrian', 'footway', 'path',
  'cycleway', 'bridleway', 'steps', 'platform', 'corridor',
] as const;
/** `foot` values that open a way whose `access` is no or private. */
const FOOT_ALLOWED = ['yes', 'designated', 'permissive', 'destination'];
/** Highway classes that are walkways: an extract with any of them maps its walkways. */
const WALKWAYS = ['footway', 'path', 'pedestrian', 'steps'];
/** `foot` values that send walkers to a walkway beside the road. */
const FOOT_BESIDE = ['no', 'use_sidepath'];
const sqlList = (values: string[]) => values.map((v) => `'${v}'`).join(', ');
/** The ways closed to walkers, over osm2pgrouting's `osm_ways` (tags as hstore). */
function closedToWalkers(mapsWalkways: boolean): string {
  return `o.tags->'motorroad' = 'yes' OR o.tags->'foot' = 'private'
    OR (o.tags->'access' IN ('no', 'private') AND coalesce(o.tags->'foot', '') NOT IN (${sqlList(FOOT_ALLOWED)}))` +
    (mapsWalkways ? ` OR o.tags->'foot' IN (${sqlList(FOOT_BESIDE)})` : '');
}
/** pgRouting's edges: undirected, the length both ways. */
const EDGES = 'SELECT gid AS id, source, target, length_m AS cost, length_m AS reverse_cost FROM ways';
/** How far inside its edge a point at the edge's end is moved (see `pointsSql`): 1e-9 of the edge, nanometres. */
const EDGE_END_FRACTION = 1e-9;
/** Metres per degree of latitude, only to draw boxes a little larger than needed around a point. */
const METRES_PER_DEGREE_BOUND = 110_000;

export interface LonLat {
  lon: number;
  lat: number;
}

/** A point linked to the network: its nearest edge, the position along it, and its off-street offset. */
export interface LinkedPoint extends LonLat {
  edge: number;
  /** 0 at the edge's source vertex, 1 at its target */
  fraction: number;
  /** metres from the point to the edge */
  offsetM: number;
}

/** A walk found by `walksWithin`: indices into its sources and targets, offsets included. */
export interface Walk {
  source: number;
  target: number;
  metres: number;
}

function mapConfiguration(): string {
  const values = WALKABLE_HIGHWAYS.map((v, k) => `    <tag_value name="${v}" id="${101 + k}" />`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<configuration>\n  <tag_name name="highway" id="1">\n${values}\n  </tag_name>\n</configuration>\n`;
}

/** The UTM zone of a point, as an EPSG code (WGS 84 / UTM). */
function utmSrid(lon: number, lat: number): number {
  const zone = Math.min(60, Math.floor((lon + 180) / 6) + 1);
  return (lat >= 0 ? 32600 : 32700) + zone;
}

/** A box of `metres` around the points (too large rather than too small). */
function boxAround(points: LonLat[], metres: number[]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  points.forEach((p, k) => {
    const dLat = (metres[k]! * 1.01) / METRES_PER_DEGREE_BOUND;
    const dLon = dLat / Math.max(0.01, Math.cos((p.lat * Math.PI) / 180));
    w = Math.min(w, p.lon - dLon);
    e = Math.max(e, p.lon + dLon);
    s = Math.min(s, p.lat - dLat);
    n = Math.max(n, p.lat + dLat);
  });
  return [w, s, e, n];
}

/**
 * pgRouting's points as a query of literal arrays (pgRouting reads its inputs from SQL text). A
 * point at an edge's very end (fraction 0 or 1) is moved EDGE_END_FRACTION inside the edge:
 * pgRouting 3.4 merges such a point with the vertex and reports no cost for it at all.
 */
function pointsSql(points: LinkedPoint[], pids: number[]): string {
  const edges = points.map((p) => p.edge).join(',');
  const fractions = points.map((p) => String(Math.min(1 - EDGE_END_FRACTION, Math.max(EDGE_END_FRACTION, p.fraction)))).join(',');
  return `SELECT * FROM unnest('{${pids.join(',')}}'::bigint[], '{${edges}}'::bigint[], '{${fractions}}'::float8[]) AS p(pid, edge_id, fraction)`;
}

export class PgRoutingWalkNetwork {
  private constructor(
    /** the PBF it was loaded from */
    readonly extract: string,
    private readonly client: pg.Client,
    /** the box of the network's edges: west, south, east, north */
    readonly bbox: [number, number, number, number],
    /** edges in the network */
    readonly edgeCount: number,
    /** whether the extract maps walkways (then `foot=no` roads are closed) */
    readonly mapsWalkways: boolean,
    private readonly srid: number,
  ) {}

  static async load(cluster: ThrowawayPostgres, extract: string, database: string): Promise<PgRoutingWalkNetwork> {
    const xml = path.join(cluster.folder, `${database}.osm`);
    const config = path.join(cluster.folder, `${database}-mapconfig.xml`);
    await command('osmium', ['cat', '--overwrite', extract, '-o', xml]);
    writeFileSync(config, mapConfiguration());
    await cluster.createDatabase(database, ['postgis', 'pgrouting', 'hstore']);
    await command('osm2pgrouting', ['-f', xml, '-c', config, '-d', database, '-U', SUPERUSER, '-h', cluster.folder, '-p', '5432', '--addnodes', '--tags', '--clean']);
    rmSync(xml, { force: true });
    const client = await cluster.connect(database);
    const mapsWalkways: boolean = (await client.query(`SELECT EXISTS (SELECT 1 FROM osm_ways WHERE tags->'highway' IN (${sqlList(WALKWAYS)})) AS x`)).rows[0].x;
    await client.query(`DELETE FROM ways w USING osm_ways o WHERE o.osm_id = w.osm_id AND (${closedToWalkers(mapsWalkways)})`);
    await client.query(`WITH parts AS (SELECT component, node FROM pgr_connectedComponents('${EDGES}')),
                             largest AS (SELECT component FROM parts GROUP BY component ORDER BY count(*) DESC, component LIMIT 1)
                        DELETE FROM ways WHERE source NOT IN (SELECT node FROM parts WHERE component = (SELECT component FROM largest))`);
    const extent = (await client.query('SELECT ST_XMin(e) w, ST_YMin(e) s, ST_XMax(e) e, ST_YMax(e) n, c FROM (SELECT ST_Extent(the_geom) e, count(*)::int c FROM ways) x')).rows[0];
    const bbox: [number, number, number, number] = [extent.w, extent.s, extent.e, extent.n];
    const srid = utmSrid((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
    await client.query(`ALTER TABLE ways ADD COLUMN geom_m geometry(LineString, ${srid})`);
    await client.query(`UPDATE ways SET geom_m = ST_Transform(the_geom, ${srid})`);
    await client.query('CREATE INDEX ways_geom_m_idx ON ways USING gist (geom_m)');
    await client.query('DROP TABLE osm_nodes');
    await client.query('VACUUM ANALYZE ways');
    return new PgRoutingWalkNetwork(extract, client, bbox, extent.c, mapsWalkways, srid);
  }

  /** Each point linked to its nearest edge, in order. */
  async link(points: LonLat[]): Promise<LinkedPoint[]> {
    if (points.length === 0) return [];
    // the nearest edge and its closest point in metres (UTM); the fraction by length on the ellipsoid,
    // as pgRouting measures the edge (a projection's scale varies along a long edge)
    const { rows } = await this.client.query(
      `SELECT w.gid::float8 AS edge,
              CASE WHEN w.length_m > 0
                   THEN least(1, ST_Length(ST_Transform(ST_LineSubstring(w.geom_m, 0, f), 4326)::geography) / w.length_m)
                   ELSE 0 END AS fraction,
              ST_Distance(q.p::geography, ST_Transform(ST_LineInterpolatePoint(w.geom_m, f), 4326)::geography) AS offset_m
         FROM (SELECT k, p, ST_Transform(p, $3::int) AS pm
                 FROM (SELECT k, ST_SetSRID(ST_MakePoint(lon, lat), 4326) AS p
                         FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS u(lon, lat, k)) a) q
        CROSS JOIN LATERAL (SELECT gid, geom_m, length_m FROM ways ORDER BY geom_m <-> q.pm LIMIT 1) w
        CROSS JOIN LATERAL (SELECT ST_LineLocatePoint(w.geom_m, q.pm) AS f) located
        ORDER BY q.k`,
      [points.map((p) => p.lon), points.map((p) => p.lat), this.srid],
    );
    return rows.map((r, k) => ({ lon: points[k]!.lon, lat: points[k]!.lat, edge: r.edge, fraction: r.fraction, offsetM: r.offset_m }));
  }

  /**
   * Walks from one point to each target in metres, offsets included, unbounded: pgr_withPointsCost
   * over the whole network. null: no path (another part of the network).
   */
  async walkFrom(source: LinkedPoint, targets: LinkedPoint[]): Promise<(number | null)[]> {
    if (targets.length === 0) return [];
    const pids = targets.map((_, k) => k + 2);
    const { rows } = await this.client.query(
      `SELECT -end_pid AS pid, agg_cost FROM pgr_withPointsCost($1, $2, -1, $3::bigint[], directed => false)`,
      [EDGES, pointsSql([source, ...targets], [1, ...pids]), pids.map((p) => -p)],
    );
    const network = new Map<number, number>(rows.map((r) => [Number(r.pid), r.agg_cost]));
    return targets.map((t, k) => {
      // a target at the source's very position: no row (pgRouting leaves out a start that is its own end)
      const d = network.get(k + 2) ?? (t.edge === source.edge && t.fraction === source.fraction ? 0 : undefined);
      return d === undefined ? null : source.offsetM + d + t.offsetM;
    });
  }

  /**
   * Every walk of at most `maxMetres` (offsets included) from a source to a target: one
   * pgr_withPointsDD from all the sources over the edges near them. A point both among the sources
   * and the targets (the same object) is one pgRouting point; its walk to itself is listed (0 + 2 ×
   * offset) when it fits.
   */
  async walksWithin(sources: LinkedPoint[], targets: LinkedPoint[], maxMetres: number): Promise<Walk[]> {
    const starts = sources.map((s, k) => ({ s, k })).filter(({ s }) => s.offsetM <= maxMetres);
    if (starts.length === 0 || targets.length === 0) return [];
    const pidOf = new Map<LinkedPoint, number>();
    const points: LinkedPoint[] = [];
    for (const p of [...starts.map(({ s }) => s), ...targets]) {
      if (pidOf.has(p)) continue;
      pidOf.set(p, points.length + 1);
      points.push(p);
    }
    const reach = Math.max(0, maxMetres - Math.min(...starts.map(({ s }) => s.offsetM)));
    const [w, s, e, n] = boxAround(starts.map(({ s }) => s), starts.map(({ s }) => maxMetres - s.offsetM));
    const edges = `${EDGES} WHERE the_geom && ST_MakeEnvelope(${w}, ${s}, ${e}, ${n}, 4326)`;
    const targetPids = [...new Set(targets.map((t) => pidOf.get(t)!))];
    const { rows } = await this.client.query(
      `SELECT -start_vid AS source, -node AS target, agg_cost
         FROM pgr_withPointsDD($1, $2, $3::bigint[], $4, directed => false, details => true)
        WHERE node < 0 AND -node = ANY($5::bigint[])`,
      [edges, pointsSql(points, points.map((_, k) => k + 1)), starts.map(({ s }) => -pidOf.get(s)!), reach, targetPids],
    );
    // pids back to indices (several targets may share a pid: the same object given twice)
    const sourcesOfPid = new Map<number, number[]>();
    for (const { s, k } of starts) push(sourcesOfPid, pidOf.get(s)!, k);
    const targetsOfPid = new Map<number, number[]>();
    targets.forEach((t, k) => push(targetsOfPid, pidOf.get(t)!, k));
    const out: Walk[] = [];
    for (const r of rows) {
      for (const si of sourcesOfPid.get(Number(r.source)) ?? []) {
        for (const ti of targetsOfPid.get(Number(r.target)) ?? []) {
          const metres = sources[si]!.offsetM + r.agg_cost + targets[ti]!.offsetM;
          if (metres <= maxMetres) out.push({ source: si, target: ti, metres });
        }
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Run a program to its end (asynchronously: the test's own loading goes on meanwhile). */
function command(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')} failed (exit ${code}): ${output}`))));
  });
}

// ---------------------------------------------------------------------------------------------------
// One cluster per process, one database per extract

let cluster: ThrowawayPostgres | undefined;
const networks = new Map<string, Promise<PgRoutingWalkNetwork>>();

/** The extract's walking network, loaded on first use in this process. */
export function openWalkNetwork(extract: string): Promise<PgRoutingWalkNetwork> {
  const key = path.resolve(extract);
  let network = networks.get(key);
  if (!network) {
    cluster ??= startPostgres();
    network = PgRoutingWalkNetwork.load(cluster, key, `walk_${networks.size + 1}`);
    networks.set(key, network);
  }
  return network;
}

/** Close every network and stop the cluster. */
export async function closeWalkNetworks(): Promise<void> {
  const open = [...networks.values()];
  networks.clear();
  for (const n of open) await n.then((x) => x.close(), () => undefined);
  cluster?.stop();
  cluster = undefined;
}
