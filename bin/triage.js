#!/usr/bin/env node
'use strict';
// The `triage` command: the esbuild bundle (dist/cli.js) when built, else the tsc output.
// `triage sweep` runs the crash harness's own entry instead (dist/sweep.js, else
// out/src/sweep/cli.js): the harness is no part of the CLI (docs/architecture.md).
// In a checkout (src/ beside it) a build older than the newest source file is refused with
// a message, never run silently: a stale build would run yesterday's code against today's state.
const fs = require('node:fs');
const path = require('node:path');
const root = path.join(__dirname, '..');
const sweep = process.argv[2] === 'sweep';
const bundle = path.join(root, 'dist', sweep ? 'sweep.js' : 'cli.js');
const compiled = sweep ? path.join(root, 'out', 'src', 'sweep', 'cli.js') : path.join(root, 'out', 'src', 'cli', 'main.js');
const entry = fs.existsSync(bundle) ? bundle : compiled;
if (!fs.existsSync(entry)) {
  process.stderr.write('triage: not built yet; run "npm run build" first\n');
  process.exit(1);
}

/** The newest .ts file under dir, as [mtimeMs, path], or undefined. */
function newestSource(dir) {
  let best;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    const found = e.isDirectory() ? newestSource(p) : e.name.endsWith('.ts') ? [fs.statSync(p).mtimeMs, p] : undefined;
    if (found && (!best || found[0] > best[0])) best = found;
  }
  return best;
}

if (!process.env.TRIAGE_ALLOW_STALE_BUILD) {
  const newest = newestSource(path.join(root, 'src'));
  const built = fs.statSync(entry).mtimeMs;
  if (newest && newest[0] > built) {
    process.stderr.write(
      `triage: the build ${path.relative(process.cwd(), entry)} is older than ${path.relative(process.cwd(), newest[1])}; ` +
        'run "npm run build" first (or set TRIAGE_ALLOW_STALE_BUILD=1 to run it anyway)\n',
    );
    process.exit(1);
  }
}

// Output piped into a program that stopped reading (`triage tasks | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode || 0);
    throw e;
  });
}

require(entry)
  .main(process.argv.slice(sweep ? 3 : 2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`triage: ${(e && e.stack) || e}\n`);
      process.exitCode = 1;
    },
  );
