/**
 * nginx run as the tests need it: from a temporary prefix (its pid, temporary files and
 * configuration inside), in the foreground, on the loopback; and nginx's absence: a skip with one
 * line naming it, a failure under CI=true (the shared data is test/helpers/shared-data.ts's).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Why the suite cannot run here (undefined: it can); under CI=true a missing piece fails instead. */
export function missing(needs: { nginx?: boolean }): string | undefined {
  let why: string | undefined;
  if (needs.nginx && spawnSync('nginx', ['-v']).error) why = 'nginx is not installed (apt-get install nginx)';
  if (why && process.env['CI'] === 'true') throw new Error(`${why}, and CI=true requires it`);
  return why;
}

/** Free ports of the loopback (bound then released: another process could take one meanwhile, rarely). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

export interface RunningNginx {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** nginx in the foreground with this configuration, once it accepts connections on `port`. */
export async function startNginx(config: string, port: number): Promise<RunningNginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), 'navette-nginx-'));
  const file = path.join(prefix, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn('nginx', ['-p', prefix, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx stopped (${child.exitCode})`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(() => true, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const ended = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT'); // graceful: finish the requests under way
      await ended;
    },
  };
}
