/**
 * The programs the pgRouting checks drive (Debian packages, installed by .ci/run), where they live,
 * and their absence: a skip with one line naming what is missing, a failure under CI=true (as
 * test/helpers/nginx.ts does for nginx), so that a CI that lost a package cannot pass by skipping.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** PostgreSQL 15's programs (Debian's postgresql-15; /usr/local/bin/initdb may be another build). */
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
/** Where Debian's postgresql-15-postgis-3 and postgresql-15-pgrouting put their extensions. */
export const POSTGRES_EXTENSIONS = '/usr/share/postgresql/15/extension';

/** What each check needs, and the Debian package that brings it. */
const NEEDED: { what: string; present: () => boolean; debian: string }[] = [
  { what: `${POSTGRES_BIN}/initdb`, present: () => existsSync(path.join(POSTGRES_BIN, 'initdb')), debian: 'postgresql-15' },
  { what: `${POSTGRES_BIN}/pg_ctl`, present: () => existsSync(path.join(POSTGRES_BIN, 'pg_ctl')), debian: 'postgresql-15' },
  { what: 'the postgis extension', present: () => existsSync(path.join(POSTGRES_EXTENSIONS, 'postgis.control')), debian: 'postgresql-15-postgis-3' },
  { what: 'the pgrouting extension', present: () => existsSync(path.join(POSTGRES_EXTENSIONS, 'pgrouting.control')), debian: 'postgresql-15-pgrouting' },
  { what: 'the hstore extension', present: () => existsSync(path.join(POSTGRES_EXTENSIONS, 'hstore.control')), debian: 'postgresql-15' },
  { what: 'osm2pgrouting', present: () => runs('osm2pgrouting', ['--version']), debian: 'osm2pgrouting' },
  { what: 'osmium', present: () => runs('osmium', ['--version']), debian: 'osmium-tool' },
];

function runs(command: string, args: string[]): boolean {
  return !spawnSync(command, args, { stdio: 'ignore' }).error;
}

/**
 * Why the pgRouting checks cannot run here (undefined: they can). Under CI=true a missing piece
 * throws instead.
 */
export function pgRoutingMissing(): string | undefined {
  return missing(NEEDED);
}

/** Why osmium cannot run here (undefined: it can), for the checks that read a PBF with it alone. Under CI=true its absence throws. */
export function osmiumMissing(): string | undefined {
  return missing(NEEDED.filter((n) => n.what === 'osmium'));
}

function missing(needed: typeof NEEDED): string | undefined {
  const absent = needed.filter((n) => !n.present());
  if (absent.length === 0) return undefined;
  const packages = [...new Set(absent.map((n) => n.debian))].join(' ');
  const why = `${absent.map((n) => n.what).join(', ')} not found (apt-get install ${packages})`;
  if (process.env['CI'] === 'true') throw new Error(`${why}, and CI=true requires it`);
  return why;
}
