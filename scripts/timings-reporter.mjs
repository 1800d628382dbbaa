// A node:test reporter that writes each test's time, one JSON object per line, for
// scripts/test-timings.mjs to add up (the tier runner gives it with --test-reporter, beside spec):
//   {"kind":"test", file, name, nesting, ms, ok}   each test and subtest as node:test timed it
// The files' own times (start-up, wall) come from scripts/test-file-timer.cjs, in each file's process.
import * as path from 'node:path';

export default async function* timings(source) {
  for await (const e of source) {
    if (e.type !== 'test:pass' && e.type !== 'test:fail') continue;
    const data = e.data ?? {};
    if (!data.file) continue;
    const ms = data.details?.duration_ms ?? 0;
    yield (
      JSON.stringify({ kind: 'test', file: path.resolve(data.file), name: data.name, nesting: data.nesting, ms: Math.round(ms), ok: e.type === 'test:pass' }) +
      '\n'
    );
  }
}
