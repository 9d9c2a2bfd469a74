/**
 * `npm start` to the first answer: the time from running the README's start command to the demo
 * coverage's first 200 (its data loaded), cold (no server build yet: the sources are compiled) and
 * warm (a second start, nothing changed: the build is skipped).
 *
 *   npm run bench:start
 *
 * Target (issue 29): warm within 5 s. The server listens on a free port of its own; the build it
 * removes for the cold start is only `npm start`'s (dist/src and its stamps), which `npm start`
 * makes again.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';

const PROBE = '/v1/coverage/demo/trips?count=1';
const TIMEOUT_MS = 300_000;

/** A port free on this machine now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Seconds from `npm start` to the first 200 of the demo, then the server stopped. */
async function timeStart(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // its own process group: npm, the shell and the server are stopped together
  const child = spawn('npm', ['start', '--', '--port', String(port)], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  // the loading progress goes to stderr: shown only when the start fails
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (;;) {
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`no answer within ${TIMEOUT_MS / 1000} s:\n${stderr}`);
      if (child.exitCode !== null) throw new Error(`npm start stopped with ${child.exitCode}:\n${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${PROBE}`);
        await res.arrayBuffer();
        if (res.status === 200) return (performance.now() - started) / 1000;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

rmSync('dist/src', { recursive: true, force: true });
rmSync('dist/.server-built', { force: true });
rmSync('dist/.tsbuildinfo-server', { force: true });
const cold = await timeStart();
const warm = await timeStart();
console.log(`npm start to the demo's first 200: cold (fresh build) ${cold.toFixed(2)} s, warm (second start) ${warm.toFixed(2)} s (target: warm within 5 s)`);
