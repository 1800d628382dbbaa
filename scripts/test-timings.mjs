#!/usr/bin/env node
// Where the suite's time went (`npm run test:timings`), from what the last run left in
// .cache/test-timings/ (git-ignored; scripts/test-all.mjs empties it when it starts):
//   phases.jsonl   each step of `npm run test:all`: the build, lint, the set-up, each tier, the
//                  real-editor tests' set-up, packaging and run (scripts/test-all.mjs, scripts/e2e.sh)
//   <tier>.jsonl   each file and test of a tier (scripts/timings-reporter.mjs)
//   spans.jsonl    what the tests spent starting servers, installing, building and waiting
//                  (test/support/timing.ts, the real-editor harness)
//   node scripts/test-timings.mjs [--top N] [--tests N]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tierOf } from './tier-rules.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TIMINGS_DIR = process.env.TRIAGE_TEST_TIMINGS_DIR || path.join(ROOT, '.cache', 'test-timings');

export function readLines(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a line cut by a kill: skipped
    }
  }
  return out;
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const rel = (f) => path.relative(ROOT, f).split(path.sep).join('/');
const pad = (t, n) => String(t).padEnd(n);
const lpad = (t, n) => String(t).padStart(n);

/** The tiers recorded: name -> records (the tests from <name>.jsonl, the files from <name>.files.jsonl). */
export function tierRecords(dir = TIMINGS_DIR) {
  const out = new Map();
  let names = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names.sort()) {
    if (!n.endsWith('.jsonl') || n.endsWith('.files.jsonl') || n === 'phases.jsonl' || n === 'spans.jsonl') continue;
    const name = n.replace(/\.jsonl$/, '');
    out.set(name, [...readLines(path.join(dir, n)), ...readLines(path.join(dir, `${name}.files.jsonl`))]);
  }
  return out;
}

/** Lines for the end of a tier run: each tier's files, their summed and start-up time; the slowest `top` files. */
export function tierSummary(tiers, { top = 10, wallMs, concurrency = 2, tierOf } = {}) {
  const lines = [];
  const files = [];
  const tests = new Map();
  for (const [, recs] of tiers) {
    for (const r of recs) {
      if (r.kind === 'file') files.push(r);
      else if (r.kind === 'test' && r.nesting === 0) tests.set(r.file, (tests.get(r.file) ?? 0) + 1);
    }
  }
  if (files.length === 0) return lines;
  const byTier = new Map();
  for (const f of files) {
    const t = tierOf ? tierOf(f.file) : 'all';
    const e = byTier.get(t) ?? { files: 0, tests: 0, ms: 0, startup: 0 };
    e.files++;
    e.tests += tests.get(f.file) ?? 0;
    e.ms += f.wallMs;
    e.startup += f.startupMs;
    byTier.set(t, e);
  }
  lines.push(`timings: tier     files  tests   file time  (÷${concurrency} slots)  of it start-up`);
  for (const [t, e] of [...byTier].sort((a, b) => b[1].ms - a[1].ms)) {
    lines.push(
      `timings: ${pad(t, 8)} ${lpad(e.files, 5)} ${lpad(e.tests, 6)} ${lpad(s(e.ms), 11)} ${lpad(s(e.ms / concurrency), 12)} ${lpad(s(e.startup), 15)}`,
    );
  }
  if (wallMs !== undefined) lines.push(`timings: wall time ${s(wallMs)} on ${concurrency} slots`);
  lines.push(`timings: the ${Math.min(top, files.length)} slowest files`);
  for (const f of [...files].sort((a, b) => b.wallMs - a.wallMs).slice(0, top)) {
    lines.push(`timings: ${lpad(s(f.wallMs), 8)}  ${tierOf ? pad(tierOf(f.file), 6) : ''} ${rel(f.file)}${f.ok ? '' : '  (failed)'}`);
  }
  return lines;
}

/** Lines for what the tests reported spending on servers, installs, builds and waits. */
export function spanSummary(spans) {
  const lines = [];
  if (spans.length === 0) return lines;
  const byKind = new Map();
  for (const sp of spans) {
    const e = byKind.get(sp.kind) ?? { n: 0, ms: 0, max: 0, label: '' };
    e.n++;
    e.ms += sp.ms;
    if (sp.ms > e.max) {
      e.max = sp.ms;
      e.label = sp.label;
    }
    byKind.set(sp.kind, e);
  }
  lines.push('timings: inside the tests       count     total   longest');
  for (const [k, e] of [...byKind].sort((a, b) => b[1].ms - a[1].ms)) {
    lines.push(`timings: ${pad(k, 22)} ${lpad(e.n, 6)} ${lpad(s(e.ms), 9)} ${lpad(s(e.max), 9)}  ${e.label}`);
  }
  return lines;
}

export function phaseSummary(phases) {
  const lines = [];
  if (phases.length === 0) return lines;
  lines.push('timings: step                                  time');
  let total = 0;
  let wall;
  for (const p of phases) {
    if (p.wall) {
      wall = p;
      continue;
    }
    if (!p.sub) total += p.ms;
    lines.push(`timings: ${pad((p.sub ? '  ' : '') + p.phase, 38)} ${lpad(s(p.ms), 8)}${p.ok === false ? '  (failed)' : ''}`);
  }
  lines.push(`timings: ${pad('sum of the steps', 38)} ${lpad(s(total), 8)}`);
  if (wall) lines.push(`timings: ${pad(wall.phase, 38)} ${lpad(s(wall.ms), 8)}`);
  return lines;
}

function slowestTests(tiers, n) {
  const tests = [];
  for (const [, recs] of tiers) for (const r of recs) if (r.kind === 'test' && r.nesting === 0) tests.push(r);
  const lines = [`timings: the ${Math.min(n, tests.length)} slowest tests`];
  for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, n)) lines.push(`timings: ${lpad(s(t.ms), 8)}  ${rel(t.file)}: ${t.name}`);
  return lines;
}

async function main(argv) {
  const num = (flag, d) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : d;
  };
  if (!fs.existsSync(TIMINGS_DIR)) {
    console.error(`test-timings: ${TIMINGS_DIR} is missing: run "npm run test:all" (or a tier) first`);
    return 1;
  }
  const tiers = tierRecords();
  const out = [
    ...phaseSummary(readLines(path.join(TIMINGS_DIR, 'phases.jsonl'))),
    ...tierSummary(tiers, {
      top: num('--top', 20),
      tierOf: (f) =>
        rel(f).startsWith('out/e2e/')
          ? 'e2e'
          : tierOf(
              path
                .relative(path.join(ROOT, 'out', 'test'), f)
                .split(path.sep)
                .join('/'),
            ),
    }),
    ...slowestTests(tiers, num('--tests', 15)),
    ...spanSummary(readLines(path.join(TIMINGS_DIR, 'spans.jsonl'))),
  ];
  console.log(out.join('\n'));
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
