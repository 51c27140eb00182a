// `npm run firebase:install`: installs firebase-tools here from the lockfile, unless that exact lockfile
// is installed already (so CI and developers may run it every time: a second run takes no time).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const lock = readFileSync(path.join(here, 'package-lock.json'));
const hash = createHash('sha256').update(lock).digest('hex');
const stamp = path.join(here, 'node_modules/.sf-installed-lock');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(path.join(here, 'node_modules/firebase-tools/package.json'))) {
  console.log('firebase-tools is installed already (tools/firebase-emulator)');
} else {
  const started = Date.now();
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: here, stdio: 'inherit' });
  writeFileSync(stamp, hash);
  console.log(`firebase-tools installed in tools/firebase-emulator in ${Math.round((Date.now() - started) / 1000)} s`);
}
