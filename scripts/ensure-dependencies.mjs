// Before `npm test` and `npm start`: install the dependencies package-lock.json pins (`npm ci`) when
// node_modules is missing, as on a fresh clone, so that the README's commands work as written.
// Plain JavaScript: it runs before anything is installed or built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('node_modules is missing: npm ci');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
