#!/usr/bin/env node
// `npm test` and `npm run test:all`: every step in order, each timed into
// .cache/test-timings/phases.jsonl, stopping at the first that fails; at the end, where the time
// went (scripts/test-timings.mjs).
//   node scripts/test-all.mjs [--no-e2e]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TIMINGS_DIR } from './test-timings.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PHASES = path.join(TIMINGS_DIR, 'phases.jsonl');

function phase(name, command, args, env = {}) {
  console.log(`\ntest-all: ${name}: ${[command, ...args].join(' ')}`);
  const t0 = performance.now();
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, env: { ...process.env, ...env } });
  const ms = Math.round(performance.now() - t0);
  const ok = r.status === 0;
  fs.appendFileSync(PHASES, JSON.stringify({ phase: name, ms, ok }) + '\n');
  if (!ok) console.error(`test-all: ${name} failed (exit ${r.status ?? r.signal})`);
  return ok;
}

function main(argv) {
  const e2e = !argv.includes('--no-e2e');
  fs.rmSync(TIMINGS_DIR, { recursive: true, force: true });
  fs.mkdirSync(TIMINGS_DIR, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const node = process.execPath;
  const steps = [
    ['build', npm, ['run', '--silent', 'build']],
    ['lint', npm, ['run', '--silent', 'lint']],
    ['format:check', npm, ['run', '--silent', 'format:check']],
    ['setup:test', npm, ['run', '--silent', 'setup:test']],
    ['tiers (unit, slow, pg, sweep)', node, ['scripts/test-tier.mjs', 'all']],
  ];
  // The real-editor tests reuse this build: e2e.sh packages the vsix from it instead of building again.
  if (e2e) steps.push(['e2e', 'bash', ['scripts/e2e.sh'], { E2E_BUILT: '1' }]);
  let ok = true;
  for (const [name, command, args, env] of steps) {
    if (!phase(name, command, args, env)) {
      ok = false;
      break;
    }
  }
  spawnSync(node, ['scripts/test-timings.mjs', '--top', '10', '--tests', '10'], { stdio: 'inherit', cwd: ROOT });
  return ok ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
