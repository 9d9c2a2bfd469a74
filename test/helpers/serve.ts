/**
 * `navette serve` in its own process, as a user runs it: started with command-line arguments, ready
 * when it logs the address it serves on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface RunningServer {
  process: ChildProcess;
  /** `http://host:port/v1/coverage` */
  base: string;
}

export async function startServer(args: string[]): Promise<RunningServer> {
  const server = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', ...args, '--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
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
