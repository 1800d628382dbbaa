/**
 * What a test spends on things other than its assertions, for `npm run test:timings`: a server
 * started, an install, a build, a child process, a wait. Each span is one JSON line appended to
 * the file TRIAGE_TEST_SPANS names (the tier runner and scripts/e2e.sh set it); with it unset,
 * nothing is written. Observes only: never changes what the test does.
 */
import * as fs from 'node:fs';

export type SpanKind = 'pg-server start' | 'code-server start' | 'browser start' | 'extension install' | 'cli process' | 'install' | 'editor wait';

export function recordSpan(kind: SpanKind, label: string, ms: number): void {
  const file = process.env.TRIAGE_TEST_SPANS;
  if (!file) return;
  try {
    fs.appendFileSync(file, JSON.stringify({ kind, label, ms: Math.round(ms), pid: process.pid }) + '\n');
  } catch {
    // the timings are a report, never a reason for a test to fail
  }
}

/** Runs `fn` and records how long it took (also when it throws). */
export async function timed<T>(kind: SpanKind, label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    recordSpan(kind, label, performance.now() - t0);
  }
}

/** The synchronous form. */
export function timedSync<T>(kind: SpanKind, label: string, fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    recordSpan(kind, label, performance.now() - t0);
  }
}
