/**
 * Progress for people: a bar redrawn in place on a terminal (at most every 100 ms), a log line every
 * tenth of the work otherwise; for loading (bytes read) and for countable work (origins).
 */
import type { LoadProgress } from '../gtfs/gtfs-loader.js';

interface Progress<T> {
  update: (p: T) => void;
  done: () => void;
}

/** How far along (0 to 1) and the words of the moment, as a bar and as a log line. */
interface Reading {
  fraction: number;
  /** after the bar */
  bar: string;
  /** after the label, in a log line */
  line: string;
  finished: boolean;
}

/** The bar or the tenths of `read(p)`, on `stream`. */
function reporter<T>(label: string, stream: NodeJS.WriteStream, read: (p: T) => Reading): Progress<T> {
  const tty = stream.isTTY === true;
  let lastDecile = -1;
  let lastDraw = 0;
  return {
    update(p) {
      const r = read(p);
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 100 && !r.finished) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(r.fraction * width);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(r.fraction * 100).toFixed(0).padStart(3)}% ${r.bar}`);
      } else {
        const decile = Math.floor(r.fraction * 10);
        if (decile > lastDecile) {
          lastDecile = decile;
          stream.write(`${label}: ${r.line}\n`);
        }
      }
    },
    done() {
      if (tty) stream.write('\n');
    },
  };
}

/** Loading a feed: bytes read, the rate, and the file being read. */
export function progressPrinter(label: string, stream: NodeJS.WriteStream = process.stderr): Progress<LoadProgress> {
  const started = Date.now();
  return reporter(label, stream, (p) => {
    const fraction = p.bytesTotal > 0 ? Math.min(1, p.bytesRead / p.bytesTotal) : 0;
    const mb = p.bytesRead / 1e6;
    const rate = mb / Math.max(0.001, (Date.now() - started) / 1000);
    return { fraction, bar: `${mb.toFixed(1)} MB ${rate.toFixed(1)} MB/s ${p.current.padEnd(40).slice(0, 40)}`, line: `${Math.floor(fraction * 10) * 10}% (${p.current})`, finished: fraction >= 1 };
  });
}

/**
 * Progress of countable work (origins of a matrix): done/total, the rate and the time left, on the
 * bar and in each tenth's line.
 */
export function workProgress(label: string, total: number, unit: string, stream: NodeJS.WriteStream = process.stderr): Progress<number> {
  const started = Date.now();
  return reporter(label, stream, (done) => {
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const rate = done / seconds;
    const left = rate > 0 ? (total - done) / rate : Infinity;
    const words = `${done}/${total} ${unit}, ${rate.toFixed(1)}/s, ${Number.isFinite(left) ? `${Math.ceil(left)} s left` : 'time left unknown'}`;
    return { fraction: total > 0 ? done / total : 1, bar: `${words}   `, line: words, finished: done >= total };
  });
}
