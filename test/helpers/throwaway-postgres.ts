/**
 * A throw-away PostgreSQL 15 cluster for the tests that need an independent database engine (the
 * pgRouting checks): created by initdb in a fresh temporary folder, listening only on a unix socket
 * in that folder (no TCP port, so it can collide with nothing), tuned for speed over durability
 * (fsync off: the data lives as long as the test), and stopped and removed by `stop()` or, should
 * the test process end without it, at its exit.
 *
 * initdb and postgres refuse to run as root, and CI runs the tests as root: there they run as the
 * `postgres` system user (`runuser`), which owns the folder; any other user runs them as itself.
 * Clients connect as the database superuser `postgres` with trust authentication (nobody else can
 * reach a socket in a folder of mode 0700).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { POSTGRES_BIN } from './pgrouting-tools.js';

/** The system user that owns the cluster when the tests run as root. */
const SYSTEM_USER = 'postgres';
/** The database superuser. */
export const SUPERUSER = 'postgres';
/** The socket's port number (only a file name, `.s.PGSQL.5432`, inside our own folder). */
const SOCKET_PORT = 5432;
/** Server settings: a test database, not a durable one. */
const SETTINGS: Record<string, string> = {
  listen_addresses: '',
  port: String(SOCKET_PORT),
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  jit: 'off',
  max_connections: '10',
  work_mem: '64MB',
  maintenance_work_mem: '256MB',
};

export interface ThrowawayPostgres {
  /** the folder of the cluster, its socket and whatever the caller writes there */
  folder: string;
  /** a new client of database `database`, connected */
  connect(database: string): Promise<pg.Client>;
  /** CREATE DATABASE with these extensions */
  createDatabase(database: string, extensions: string[]): Promise<void>;
  /** stop the server and remove the folder (again: nothing) */
  stop(): void;
}

/** As the cluster's owner: `runuser -u postgres --` when we are root. */
function asOwner(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', SYSTEM_USER, '--', command, ...args]] : [command, args];
}

function run(command: string, args: string[]): void {
  const [c, a] = asOwner(command, args);
  const r = spawnSync(c, a, { encoding: 'utf8', cwd: tmpdir() });
  if (r.error || r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr}${r.stdout}`);
}

export function startPostgres(): ThrowawayPostgres {
  const folder = mkdtempSync(path.join(tmpdir(), 'navette-postgres-'));
  const data = path.join(folder, 'data');
  if (userInfo().uid === 0) {
    const owner = spawnSync('id', ['-u', SYSTEM_USER], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', SYSTEM_USER], { encoding: 'utf8' });
    if (owner.status !== 0 || group.status !== 0) throw new Error(`no system user ${SYSTEM_USER} to run PostgreSQL as (root cannot)`);
    chownSync(folder, Number(owner.stdout), Number(group.stdout));
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    const [c, a] = asOwner(path.join(POSTGRES_BIN, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate', '-s']);
    spawnSync(c, a, { stdio: 'ignore', cwd: tmpdir() });
    rmSync(folder, { recursive: true, force: true });
  };
  process.on('exit', stop);
  try {
    run(path.join(POSTGRES_BIN, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
    const options = [`-k ${folder}`, ...Object.entries(SETTINGS).map(([k, v]) => `-c ${k}=${v === '' ? "''" : v}`)].join(' ');
    run(path.join(POSTGRES_BIN, 'pg_ctl'), ['start', '-D', data, '-w', '-s', '-l', path.join(folder, 'server.log'), '-o', options]);
  } catch (e) {
    stop();
    throw e;
  }
  const connect = async (database: string) => {
    const client = new pg.Client({ host: folder, port: SOCKET_PORT, user: SUPERUSER, database });
    await client.connect();
    return client;
  };
  return {
    folder,
    connect,
    async createDatabase(database, extensions) {
      const admin = await connect('postgres');
      try {
        await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
      } finally {
        await admin.end();
      }
      const client = await connect(database);
      try {
        for (const e of extensions) await client.query(`CREATE EXTENSION ${pg.escapeIdentifier(e)}`);
      } finally {
        await client.end();
      }
    },
    stop,
  };
}
