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
  /** Every JSON line it logged so far, parsed (it keeps growing). */
  logs: Record<string, unknown>[];
  /** The next logged line whose message matches, waited for at most `timeoutMs`. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** `navette serve ARGS` on a free port of the loopback, its log on stdout, `stderr` as asked. */
function serve(args: string[], stderr: 'inherit' | 'pipe', port = 0): ChildProcess {
  return spawn(process.execPath, ['dist/src/cli/main.js', 'serve', ...args, '--port', String(port), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', stderr],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
}

/** `port`: a given one (a replica behind nginx restarts on its own); default, a free one. */
export async function startServer(args: string[], port = 0): Promise<RunningServer> {
  const server = serve(args, 'inherit', port);
  const logs: Record<string, unknown>[] = [];
  const waiters: { pattern: RegExp; resolve: (line: Record<string, unknown>) => void }[] = [];
  // the server logs one JSON line per event; the last one at start-up names the address it serves on
  let ready: (base: string | undefined) => void;
  const started = new Promise<string | undefined>((resolve) => (ready = resolve));
  const lines = createInterface({ input: server.stdout! });
  lines.on('line', (line) => {
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as Record<string, unknown>;
    logs.push(entry);
    const msg = String(entry['msg']);
    const base = /^serving \d+ coverage\(s\) on (\S+)$/.exec(msg)?.[1];
    if (base) ready(base);
    for (const w of [...waiters]) {
      if (w.pattern.test(msg)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(entry);
      }
    }
  });
  lines.on('close', () => ready(undefined));
  const base = await started;
  if (!base) throw new Error(`navette serve ${args.join(' ')} stopped before serving`);
  return {
    process: server,
    base,
    logs,
    waitForLog(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: (entry) => {
            clearTimeout(timer);
            resolve(entry);
          },
        });
      });
    },
  };
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
