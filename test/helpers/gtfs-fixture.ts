/**
 * Tiny GTFS feeds written inline, one file per `# name.txt` header:
 *
 *   # agency.txt
 *   agency_id,agency_name,agency_url,agency_timezone
 *   A,Agency,http://a.example,Europe/Paris
 *   # stops.txt
 *   …
 *
 * `writeFeed` puts them in a folder named `name` (the feed's key in its coverage) inside a fresh
 * temporary folder, and returns its path.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function writeFeed(text: string, name = 'gtfs'): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'navette-feed-')), name);
  mkdirSync(dir);
  let current: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (current) writeFileSync(path.join(dir, current), lines.join('\n') + '\n');
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^#\s*(\S+)$/.exec(line);
    if (header) {
      flush();
      current = header[1]!;
      lines = [];
    } else if (line && current) lines.push(line);
  }
  flush();
  return dir;
}

