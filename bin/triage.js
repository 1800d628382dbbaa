#!/usr/bin/env node
'use strict';
// The `triage` command: the esbuild bundle when built, else the tsc output.
const fs = require('node:fs');
const path = require('node:path');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
const compiled = path.join(__dirname, '..', 'out', 'src', 'cli', 'main.js');
const entry = fs.existsSync(bundle) ? bundle : compiled;
if (!fs.existsSync(entry)) {
  process.stderr.write('triage: not built yet; run "npm run build" first\n');
  process.exit(1);
}
require(entry).main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => { process.stderr.write(`triage: ${(e && e.stack) || e}\n`); process.exitCode = 1; },
);
