// Reads the logs of bench/paired-runs.sh (OUT_DIR/<bench>-<before|after>-<round>.log) and prints, per
// figure, the median of each side with its spread (min–max over the runs that printed it), the change
// of the medians, each round's after against the same round's before, and the load average before
// each run, as a Markdown table.
//
//   node bench/paired-table.mjs /tmp/sf-paired
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? '/tmp/sf-paired';
const number = (text) => Number(text.replace(/,/g, ''));

/** name → value for each figure a log holds (a figure missing from a side is left out there). */
function figuresOf(bench, text) {
  const found = new Map();
  const add = (name, value) => Number.isFinite(value) && found.set(name, value);
  if (bench === 'api') {
    for (const m of text.matchAll(/^(GET \S+?)(?:\?\S*)?\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+\d+\s+(\d+)$/gm)) {
      add(`${m[1]} req/s`, number(m[2]));
      add(`${m[1]} p50 ms`, number(m[3]));
      add(`${m[1]} p99 ms`, number(m[4]));
      add(`${m[1]} API CPU µs/req`, number(m[5]));
    }
  }
  if (bench === 'web') {
    const kib = (label, re) => add(label, number(re.exec(text)?.[1] ?? 'NaN'));
    kib('login JS on the wire KiB', /Login JS on the wire:\s+([\d.]+) KiB/);
    kib('login total on the wire KiB', /Login total on the wire: ([\d.]+) KiB/);
    kib('JS fetched on focus KiB', /when a field gets focus[^:]*: ([\d.]+) KiB of JS/);
    kib('sign-in → 25 rows median ms', /Sign-in →[^\n]*\n\s+median (\d+) ms/);
    kib('deep link → 25 rows median ms', /Deep link to[^\n]*\n\s+median (\d+) ms/);
    kib('deep link main thread busy median ms', /main thread busy meanwhile: median (\d+) ms/);
    for (const label of ['cold browser', 'returning browser']) {
      const block = new RegExp(`Journey, ${label}[^\\n]*\\n\\s+submit → menu link visible: [^;]*; median (\\d+) ms[^\\n]*\\n\\s+submit → [^:]*: [^;]*; median (\\d+) ms`).exec(text);
      if (block) {
        add(`journey ${label}: submit → menu ms`, number(block[1]));
        add(`journey ${label}: submit → rows ms`, number(block[2]));
      }
    }
  }
  if (bench === 'loyalty') {
    for (const m of text.matchAll(/^\s{2}(\S.*?)\s+app p50\s+([\d.]+) ms p95\s+([\d.]+) ms\s+\| raw SQL p50\s+([\d.]+) ms p95\s+([\d.]+) ms/gm)) {
      add(`${m[1]}: app p50 ms`, number(m[2]));
      add(`${m[1]}: app p95 ms`, number(m[3]));
    }
    const one = /one purchase at a time: p50 ([\d.]+) ms p95 ([\d.]+) ms/.exec(text);
    if (one) {
      add('one purchase at a time p50 ms', number(one[1]));
      add('one purchase at a time p95 ms', number(one[2]));
    }
    const writes = [
      ['purchases/s spread, first 10 s', /first \d+ s after a checkpoint: (\d+)\/s[^\n]*CPU per purchase: Node ([\d.]+) ms[^\n]*PostgreSQL ([\d.]+) ms/],
      ['purchases/s spread, next 10 s', /the next \d+ s: (\d+)\/s[^\n]*CPU per purchase: Node ([\d.]+) ms[^\n]*PostgreSQL ([\d.]+) ms/],
      ['purchases/s one hot member', /one hot member:\s+(\d+)\/s \(\d+ ok[^\n]*CPU per purchase: Node ([\d.]+) ms[^\n]*PostgreSQL ([\d.]+) ms/],
      ['raw SQL anchor purchases/s spread', /^\s+spread: (\d+)\/s[^\n]*CPU per purchase: Node ([\d.]+) ms[^\n]*PostgreSQL ([\d.]+) ms/m],
    ];
    for (const [label, re] of writes) {
      const m = re.exec(text);
      if (!m) continue;
      add(label, number(m[1]));
      if (label.startsWith('raw')) {
        // The app's rate as a share of the raw SQL's, measured minutes apart in one process: the load matters less.
        const share = /→ app\/raw (\d+) %/.exec(text.slice(m.index));
        if (share) add('app/raw SQL purchases, spread (%)', number(share[1]));
      } else {
        add(`${label}: Node CPU ms/purchase`, number(m[2]));
        add(`${label}: PostgreSQL CPU ms/purchase`, number(m[3]));
      }
    }
  }
  return found;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const show = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(Math.abs(value) >= 10 ? 1 : 2));

const runs = new Map(); // bench → side → [{ round, load, figures }]
for (const file of readdirSync(dir).filter((name) => /^(api|web|loyalty)-(before|after)-\d+\.log$/.test(name)).sort()) {
  const [bench, side, round] = file.replace(/\.log$/, '').split('-');
  const text = readFileSync(path.join(dir, file), 'utf8');
  const load = /load average before: ([\d.]+)/.exec(text)?.[1] ?? '?';
  const figures = figuresOf(bench, text);
  if (figures.size === 0) continue; // a run that failed before printing anything
  const sides = runs.get(bench) ?? new Map();
  runs.set(bench, sides);
  sides.set(side, [...(sides.get(side) ?? []), { round: Number(round), load, figures }]);
}

for (const [bench, sides] of runs) {
  const before = sides.get('before') ?? [];
  const after = sides.get('after') ?? [];
  const loads = (list) => list.sort((a, b) => a.round - b.round).map((run) => run.load).join(', ');
  console.log(`\n### ${bench}: ${before.length} before / ${after.length} after runs; 1-min load average before each run: before ${loads(before)}; after ${loads(after)}\n`);
  console.log('| figure | before: median (min–max, runs) | after: median (min–max, runs) | change of the medians | per round, after vs before (median; each) |');
  console.log('|---|---|---|---|---|');
  const names = [...new Set([...before, ...after].flatMap((run) => [...run.figures.keys()]))];
  for (const name of names) {
    const cell = (list) => {
      const values = list.map((run) => run.figures.get(name)).filter((value) => value !== undefined);
      if (values.length === 0) return { text: '—', median: NaN };
      return { text: `${show(median(values))} (${show(Math.min(...values))}–${show(Math.max(...values))}, n=${values.length})`, median: median(values) };
    };
    const b = cell(before);
    const a = cell(after);
    const percent = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(0)} %`;
    const change = Number.isFinite(a.median) && Number.isFinite(b.median) && b.median !== 0 ? percent(a.median / b.median) : '—';
    // Each round's after against the same round's before (they ran back to back, at nearly the same load).
    const ratios = after
      .map((run) => [run.figures.get(name), before.find((other) => other.round === run.round)?.figures.get(name)])
      .filter(([x, y]) => x !== undefined && y !== undefined && y !== 0)
      .map(([x, y]) => x / y);
    const paired = ratios.length > 0 ? `${percent(median(ratios))} (${ratios.map(percent).join(', ')})` : '—';
    console.log(`| ${name} | ${b.text} | ${a.text} | ${change} | ${paired} |`);
  }
}
