/**
 * Load progress for people: a bar redrawn in place on a terminal, a log line every 10 % otherwise.
 */
import type { LoadProgress } from '../gtfs/gtfs-loader.js';

export function progressPrinter(label: string, stream: NodeJS.WriteStream = process.stderr): { update: (p: LoadProgress) => void; done: () => void } {
  const tty = stream.isTTY === true;
  let lastDecile = -1;
  let lastDraw = 0;
  const started = Date.now();
  return {
    update(p) {
      const fraction = p.bytesTotal > 0 ? Math.min(1, p.bytesRead / p.bytesTotal) : 0;
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 100 && fraction < 1) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(fraction * width);
        const mb = p.bytesRead / 1e6;
        const rate = mb / Math.max(0.001, (now - started) / 1000);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${mb.toFixed(1)} MB ${rate.toFixed(1)} MB/s ${p.current.padEnd(40).slice(0, 40)}`);
      } else {
        const decile = Math.floor(fraction * 10);
        if (decile > lastDecile) {
          lastDecile = decile;
          stream.write(`${label}: ${decile * 10}% (${p.current})\n`);
        }
      }
    },
    done() {
      if (tty) stream.write('\n');
    },
  };
}

/**
 * Progress of countable work (origins of a matrix): on a terminal a bar with done/total, the rate
 * and the time left, redrawn in place; otherwise a plain line every tenth of the work.
 */
export function workProgress(label: string, total: number, unit: string, stream: NodeJS.WriteStream = process.stderr): { update: (done: number) => void; done: () => void } {
  const tty = stream.isTTY === true;
  const started = Date.now();
  let lastDraw = 0;
  let lastDecile = -1;
  const line = (done: number) => {
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const rate = done / seconds;
    const left = rate > 0 ? (total - done) / rate : Infinity;
    return `${done}/${total} ${unit}, ${rate.toFixed(1)}/s, ${Number.isFinite(left) ? `${Math.ceil(left)} s left` : 'time left unknown'}`;
  };
  return {
    update(done) {
      const fraction = total > 0 ? done / total : 1;
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(fraction * width);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${line(done)}   `);
      } else {
        const decile = Math.floor(fraction * 10);
        if (decile > lastDecile) {
          lastDecile = decile;
          stream.write(`${label}: ${line(done)}\n`);
        }
      }
    },
    done() {
      if (tty) stream.write('\n');
    },
  };
}
