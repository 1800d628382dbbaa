// Loaded into each test file's process by the tier runner (node --test passes --require on to
// them): when the process exits, one JSON line to TRIAGE_TEST_FILE_TIMES with the file, its
// start-up (from the process's start until its modules were loaded, i.e. the first turn of the
// event loop) and its wall time. Measured in the file's own process because node:test hands a
// file's results to the reporter only in file order, so the reporter cannot time files itself.
'use strict';
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const main = process.argv[1] || '';
const out = process.env.TRIAGE_TEST_FILE_TIMES;
if (out && /\.test\.[cm]?js$/.test(main) && !process.execArgv.includes('--test')) {
  let loadedMs;
  setImmediate(() => {
    loadedMs = performance.now();
  });
  process.on('exit', (code) => {
    const wallMs = performance.now();
    try {
      fs.appendFileSync(
        out,
        JSON.stringify({ kind: 'file', file: main, startupMs: Math.round(loadedMs ?? wallMs), wallMs: Math.round(wallMs), ok: code === 0 }) + '\n',
      );
    } catch {
      // the timings are a report, never a reason for a test to fail
    }
  });
}
