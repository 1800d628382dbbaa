#!/usr/bin/env node
// `npm test` and `npm run test:all`: every step, each timed into .cache/test-timings/phases.jsonl,
// stopping at the first that fails; at the end, where the time went (scripts/test-timings.mjs).
//   node scripts/test-all.mjs [--no-e2e] [--serial]
// What can overlap does, on the two cores CI has:
//   1. the set-up (Debian packages, the runner fixtures' and code-server's installs: network and
//      disk) runs beside the build, lint and the format check (CPU); lint and the format check
//      run side by side. The tiers wait only for their own set-up (setup-test-deps.sh), not for
//      the editor's (e2e-setup.sh, code-server and Chromium), which goes on beside them;
//   2. the real-editor tests (mostly waiting on the editor) run beside the tiers once the
//      editor's set-up is done, their output in .cache/test-timings/e2e.log, printed when they
//      end. --serial runs them after the tiers, on the terminal.
// One build serves every step: e2e.sh packs the .vsix from it (E2E_BUILT=1) instead of building again.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TIMINGS_DIR } from './test-timings.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PHASES = path.join(TIMINGS_DIR, 'phases.jsonl');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs one step; its output to the terminal, or to `log` (a file) when given. Resolves to whether it passed. */
function step(name, command, args, o = {}) {
  const where = o.log ? ` (output in ${path.relative(ROOT, o.log)})` : '';
  console.log(`\ntest-all: ${name}: ${[command, ...args].join(' ')}${where}`);
  const t0 = performance.now();
  const out = o.log ? fs.openSync(o.log, 'w') : 'inherit';
  const child = spawn(command, args, { stdio: ['ignore', out, out], cwd: ROOT, env: { ...process.env, ...o.env } });
  return new Promise((resolve) => {
    child.on('error', (e) => {
      console.error(`test-all: ${name} could not start: ${e.message}`);
      resolve(false);
    });
    child.on('close', (code, signal) => {
      if (typeof out === 'number') fs.closeSync(out);
      const ms = Math.round(performance.now() - t0);
      const ok = code === 0;
      fs.appendFileSync(PHASES, JSON.stringify({ phase: name, ms, ok }) + '\n');
      console.log(`test-all: ${name} ${ok ? 'passed' : `failed (exit ${code ?? signal})`} in ${(ms / 1000).toFixed(1)} s`);
      resolve(ok);
    });
  });
}

function printLog(file, lines) {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const all = text.trimEnd().split('\n');
  const shown = lines === undefined ? all : all.slice(-lines);
  console.log(`\n----- ${path.relative(ROOT, file)}${shown.length < all.length ? ` (last ${shown.length} of ${all.length} lines)` : ''}`);
  console.log(shown.join('\n'));
  console.log('-----');
}

async function main(argv) {
  const e2e = !argv.includes('--no-e2e');
  const serial = argv.includes('--serial');
  fs.rmSync(TIMINGS_DIR, { recursive: true, force: true });
  fs.mkdirSync(TIMINGS_DIR, { recursive: true });
  const t0 = performance.now();
  const setupLog = path.join(TIMINGS_DIR, 'setup.log');
  const e2eSetupLog = path.join(TIMINGS_DIR, 'e2e-setup.log');

  // 1. The set-ups beside the build (the editor's after the tiers', as both may run apt); then lint and the format check side by side.
  const setup = step('setup:test', 'bash', ['scripts/setup-test-deps.sh'], { log: setupLog });
  const e2eSetup = e2e ? setup.then((ready) => ready && step('e2e set-up', 'bash', ['scripts/e2e-setup.sh'], { log: e2eSetupLog })) : Promise.resolve(true);
  let ok = await step('build', NPM, ['run', '--silent', 'build']);
  if (ok)
    ok = (await Promise.all([step('lint', NPM, ['run', '--silent', 'lint']), step('format:check', NPM, ['run', '--silent', 'format:check'])])).every(Boolean);
  const setupOk = await setup;
  if (!setupOk) printLog(setupLog, 60);
  ok &&= setupOk;

  // 2. The tiers, and the real-editor tests beside them once the editor is set up.
  if (ok) {
    const e2eLog = path.join(TIMINGS_DIR, 'e2e.log');
    const runE2e = () => step('e2e', 'bash', ['scripts/e2e.sh'], { env: { E2E_BUILT: '1' }, ...(serial ? {} : { log: e2eLog }) });
    const editorReady = async () => {
      const ready = await e2eSetup;
      if (!ready) printLog(e2eSetupLog, 60);
      return ready;
    };
    const pending = e2e && !serial ? editorReady().then((ready) => ready && runE2e()) : undefined;
    const tiersOk = await step('tiers (unit, slow, pg, sweep)', process.execPath, ['scripts/test-tier.mjs', 'all']);
    let e2eOk = true;
    if (pending) {
      console.log('\ntest-all: waiting for the real-editor tests');
      e2eOk = await pending;
      printLog(e2eLog, e2eOk ? 40 : undefined);
    } else if (e2e && tiersOk) e2eOk = (await editorReady()) && (await runE2e());
    ok = tiersOk && e2eOk;
  } else await e2eSetup; // not left running past the end
  const total = Math.round(performance.now() - t0);
  fs.appendFileSync(PHASES, JSON.stringify({ phase: 'wall time (steps overlap)', ms: total, ok, wall: true }) + '\n');
  await new Promise((resolve) =>
    spawn(process.execPath, ['scripts/test-timings.mjs', '--top', '10', '--tests', '10'], { stdio: 'inherit', cwd: ROOT }).on('close', resolve),
  );
  console.log(`\ntest-all: ${ok ? 'passed' : 'FAILED'} in ${(total / 60_000).toFixed(1)} min`);
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
