// A node:test reporter that writes where the time goes, one JSON object per line, for
// scripts/test-timings.mjs to add up (the tier runner gives it with --test-reporter, beside spec):
//   {"kind":"test", file, name, nesting, ms, ok}        each test and subtest as node:test timed it
//   {"kind":"file", file, startupMs, wallMs, tests, ok}  each test file: from its process being started
//       (dequeued) to its first event (process start-up and module loading), and to its last event
// Times are taken as the events reach this process, which is the runner's: a file's wall time
// is the time it held one of the runner's slots.
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

export default async function* timings(source) {
  const files = new Map(); // file -> { start, first, last, tests, ok }
  const now = () => performance.now();
  const fileOf = (data) => data.file && path.resolve(data.file);
  for await (const e of source) {
    const data = e.data ?? {};
    const file = fileOf(data);
    if (!file) continue;
    const t = now();
    if (e.type === 'test:dequeue' && data.nesting === 0 && data.name === data.file) {
      files.set(file, { start: t, first: undefined, last: t, tests: 0, ok: true });
      continue;
    }
    const f = files.get(file);
    if (f) {
      f.first ??= t;
      f.last = t;
    }
    if (e.type === 'test:pass' || e.type === 'test:fail') {
      const ok = e.type === 'test:pass';
      if (f) {
        if (data.nesting === 0) f.tests++;
        if (!ok) f.ok = false;
      }
      const ms = data.details?.duration_ms ?? 0;
      yield JSON.stringify({ kind: 'test', file, name: data.name, nesting: data.nesting, ms: Math.round(ms), ok }) + '\n';
    }
  }
  for (const [file, f] of files) {
    yield (
      JSON.stringify({
        kind: 'file',
        file,
        startupMs: Math.round((f.first ?? f.last) - f.start),
        wallMs: Math.round(f.last - f.start),
        tests: f.tests,
        ok: f.ok,
      }) + '\n'
    );
  }
}
