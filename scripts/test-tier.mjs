#!/usr/bin/env node
// Runs one or more tiers of the compiled tests (out/test, so build first):
//   node scripts/test-tier.mjs unit|slow|pg|sweep|all [--list]
// A test file's tier is decided by its path below, first match wins; a file no rule names is a
// unit test. So a new test file lands in a tier without editing package.json, and in `unit`
// unless it sits in a folder listed here. `all` is every tier (everything but the real-editor
// tests of test/e2e, which scripts/e2e.sh compiles and runs on its own). --list prints the files
// instead of running them. Each run leaves its timings in .cache/test-timings/<tiers>.jsonl
// (scripts/timings-reporter.mjs) and ends by printing each tier's time and the ten slowest files;
// `npm run test:timings` shows the rest.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TIMINGS_DIR, readLines, tierSummary } from './test-timings.mjs';
import { TIERS, startOrder, tierOf } from './tier-rules.mjs';

export { tierOf };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'out', 'test');
const REPORTER = path.join(ROOT, 'scripts', 'timings-reporter.mjs');
const FILE_TIMER = path.join(ROOT, 'scripts', 'test-file-timer.cjs');
const CONCURRENCY = 2;

function testFiles() {
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.js')) files.push(path.relative(OUT, p).split(path.sep).join('/'));
    }
  };
  walk(OUT);
  return files.sort();
}

async function main(argv) {
  const list = argv.includes('--list');
  const asked = argv.filter((a) => a !== '--list');
  const bad = asked.filter((a) => a !== 'all' && !TIERS.includes(a));
  if (asked.length === 0 || bad.length > 0) {
    console.error(`usage: node scripts/test-tier.mjs ${[...TIERS, 'all'].join('|')}... [--list]${bad.length ? ` (unknown tier: ${bad.join(', ')})` : ''}`);
    return 2;
  }
  if (!fs.existsSync(OUT)) {
    console.error(`test-tier: ${OUT} is missing; run "npm run build" first`);
    return 2;
  }
  const want = new Set(asked.includes('all') ? TIERS : asked);
  const files = startOrder(testFiles().filter((f) => want.has(tierOf(f))));
  if (list) {
    for (const f of files) console.log(`${tierOf(f)}\t${f}`);
    return 0;
  }
  if (files.length === 0) {
    console.error(`test-tier: no test files in ${[...want].join(', ')} under ${OUT}`);
    return 1;
  }
  const name = asked.includes('all') ? 'all' : [...want].join('+');
  fs.mkdirSync(TIMINGS_DIR, { recursive: true });
  const record = path.join(TIMINGS_DIR, `${name}.jsonl`);
  const fileTimes = path.join(TIMINGS_DIR, `${name}.files.jsonl`);
  fs.rmSync(fileTimes, { force: true });
  const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${record}`];
  const t0 = performance.now();
  const env = { ...process.env, TRIAGE_TEST_SPANS: process.env.TRIAGE_TEST_SPANS || path.join(TIMINGS_DIR, 'spans.jsonl'), TRIAGE_TEST_FILE_TIMES: fileTimes };
  const pg = await tierPg(files, env);
  let status;
  try {
    status = await run(
      process.execPath,
      ['--require', FILE_TIMER, '--test', `--test-concurrency=${CONCURRENCY}`, ...reporters, ...files.map((f) => path.join(OUT, f))],
      env,
    );
  } finally {
    pg?.stop();
  }
  const wallMs = performance.now() - t0;
  const summary = tierSummary(new Map([[name, [...readLines(record), ...readLines(fileTimes)]]]), {
    wallMs,
    concurrency: CONCURRENCY,
    tierOf: (f) => tierOf(path.relative(OUT, f).split(path.sep).join('/')),
  });
  if (summary.length) console.log(['', ...summary, `timings: the rest: npm run test:timings (${path.relative(ROOT, record)})`].join('\n'));
  return status;
}

/**
 * One PostgreSQL server for every file of the pg tier (each test still makes its own database):
 * started here, handed on in the environment (SHARED_ENV of tools/pg/local-server), stopped when
 * the tier ends, or when this runner is interrupted. An explicit TRIAGE_TEST_PG_SERVER is kept.
 */
async function tierPg(files, env) {
  const mod = path.join(ROOT, 'out', 'tools', 'pg', 'local-server.js');
  if (!files.some((f) => tierOf(f) === 'pg') || !fs.existsSync(mod)) return undefined;
  const { startLocalPg, SHARED_ENV } = await import(mod);
  if (env[SHARED_ENV]) return undefined;
  const t0 = performance.now();
  const server = await startLocalPg();
  env[SHARED_ENV] = JSON.stringify({ url: server.url, socketDir: server.socketDir, port: server.port });
  console.log(`test-tier: one PostgreSQL server for the pg tier's files (${((performance.now() - t0) / 1000).toFixed(1)} s to start)`);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      server.stop();
      process.exit(130);
    });
  }
  return server;
}

function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: ROOT, env });
    child.on('error', (e) => {
      console.error(`test-tier: ${cmd}: ${e.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 1)));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
