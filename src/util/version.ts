/** The version of package.json (read from dist/src/util/ → the package root), "unknown" when it cannot be read. */
import { readFileSync } from 'node:fs';

export const VERSION: string = (() => {
  try {
    return String(JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version);
  } catch {
    return 'unknown';
  }
})();
