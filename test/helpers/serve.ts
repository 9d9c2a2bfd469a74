/**
 * `navette serve` in its own process, as a user runs it: started with command-line arguments, ready
 * when it logs the address it serves on; or refusing its arguments.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface RunningServer {
  process: ChildProcess;
  /** `http://host:port/v1/coverage` */
  base: string;
}

/** `navette serve ARGS` on a free port of the loopback, its log on stdout, `stderr` as asked. */
function serve(args: string[], stderr: 'inherit' | 'pipe'): ChildProcess {
  return spawn(process.execPath, ['dist/src/cli/main.js', 'serve', ...args, '--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', stderr],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
}

export async function startServer(args: string[]): Promise<RunningServer> {
  const server = serve(args, 'inherit');
  // the server logs one JSON line per event; the last one at start-up names the address it serves on
  let base: string | undefined;
  for await (const line of createInterface({ input: server.stdout! })) {
    const msg = line.startsWith('{') ? String(JSON.parse(line).msg) : '';
    base = /^serving \d+ coverage\(s\) on (\S+)$/.exec(msg)?.[1];
    if (base) break;
  }
  if (!base) throw new Error(`navette serve ${args.join(' ')} stopped before serving`);
  server.stdout!.resume(); // keep draining its log
  return { process: server, base };
}

/**
 * `navette serve ARGS` expected to refuse them: its exit code and what it wrote on stderr. A server
 * that takes them is stopped after `timeoutMs`, and its code is then null.
 */
export async function serveRefusal(args: string[], timeoutMs = 10_000): Promise<{ code: number | null; stderr: string }> {
  const server = serve(args, 'pipe');
  server.stdout!.resume();
  let stderr = '';
  server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => server.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(server, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}
