// Builds the web app and prints what the browser loads for /auth/login: index.html's entry chunk plus
// every chunk it imports statically (lazy routes are `dynamicImports` and stay out), JS and CSS, in
// gzip bytes. Fails when the login JavaScript is over budget (issue 3: 150 kB gzip).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_JS_GZIP = 150 * 1024;
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'))
  ?? Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('No entry in the Vite manifest');

const js = new Set();
const css = new Set();
const visit = (key, seen = new Set()) => {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  if (chunk.file.endsWith('.js')) js.add(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
  for (const imported of chunk.imports ?? []) visit(imported, seen);
};
visit(entryKey);

const measure = (files) =>
  [...files].map((file) => {
    const content = readFileSync(path.join(dist, file));
    return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
  });
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const report = (label, rows) => {
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  for (const row of rows.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(9)} gzip`);
  console.log(`${label}: ${total} bytes gzip (${kb(total)})`);
  return total;
};

console.log(`What /auth/login loads (entry ${entryKey}):`);
const jsTotal = report('Login JS', measure(js));
report('Login CSS', measure(css));
const lazy = Object.values(manifest).filter((chunk) => chunk.isDynamicEntry).length;
console.log(`Lazy chunks left out of the first load: ${lazy}`);

if (jsTotal > BUDGET_JS_GZIP) {
  console.error(`Login JS ${kb(jsTotal)} gzip is over the budget of ${kb(BUDGET_JS_GZIP)}.`);
  process.exit(1);
}
console.log(`Within the budget of ${kb(BUDGET_JS_GZIP)} gzip.`);
