// What the real-editor tests spend starting code-server and Chromium, installing the .vsix and
// waiting on the editor, for `npm run test:timings`: the same JSON lines as the unit tests'
// test/support/timing.ts (this folder compiles on its own), appended to TRIAGE_TEST_SPANS when set.
import * as fs from 'node:fs';

export async function timedSpan<T>(kind: string, label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    const file = process.env.TRIAGE_TEST_SPANS;
    if (file) fs.appendFileSync(file, JSON.stringify({ kind, label, ms: Math.round(performance.now() - t0), pid: process.pid }) + '\n');
  }
}
