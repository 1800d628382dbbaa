/**
 * node:test, with a machine-readable reporter of our own: a reporter module given to
 * `node --test` as a data: URL, which writes one JSON line per event we need (a test passed or
 * failed, with its name, nesting and error; a file's stderr) to a report file. One file at a
 * time (--test-concurrency=1), so the events come in a fixed order.
 */
import * as path from 'node:path';
import { nodeChildEnv } from './node-child';
import { walkFiles } from '../workspace/walk';
import { readIfThere, withReportDir, type RunContext } from './context';
import { testRun } from './result';
import { runnerEnv } from './child-env';
import { spawnCapture } from './spawn-capture';
import { trimDetail } from './normalize';
import type { Failure, TestRun } from './types';

/** Test files node:test runs here: every *.test.js / .cjs / .mjs outside node_modules and .git, sorted. */
export async function findNodeTestFiles(root: string): Promise<string[]> {
  return (await walkFiles(root, path.resolve(root))).filter((f) => /\.test\.[cm]?js$/.test(f));
}

const REPORTER = `
const pick = (e) => {
  if (!e) return undefined;
  const c = e.cause;
  return { message: String(e.message ?? e), failureType: e.failureType, cause: c && typeof c === 'object' ? { message: String(c.message ?? ''), stack: String(c.stack ?? '') } : c === undefined ? undefined : String(c) };
};
export default async function* (source) {
  for await (const ev of source) {
    const d = ev.data ?? {};
    if (ev.type === 'test:pass' || ev.type === 'test:fail') {
      const det = d.details ?? {};
      yield JSON.stringify({ t: ev.type === 'test:pass' ? 'pass' : 'fail', name: d.name, nesting: d.nesting, file: d.file, suite: det.type === 'suite', todo: d.todo !== undefined && d.todo !== false, skip: d.skip !== undefined && d.skip !== false, error: pick(det.error) }) + '\\n';
    } else if (ev.type === 'test:start') {
      yield JSON.stringify({ t: 'start', name: d.name, nesting: d.nesting, file: d.file }) + '\\n';
    } else if (ev.type === 'test:stderr' || ev.type === 'test:stdout') {
      yield JSON.stringify({ t: ev.type === 'test:stderr' ? 'stderr' : 'stdout', file: d.file, message: d.message }) + '\\n';
    }
  }
}
`;
const REPORTER_URL = `data:text/javascript,${encodeURIComponent(REPORTER)}`;

interface Event {
  t: 'pass' | 'fail' | 'start' | 'stderr' | 'stdout';
  name?: string;
  nesting?: number;
  file?: string;
  suite?: boolean;
  todo?: boolean;
  skip?: boolean;
  message?: string;
  error?: { message: string; failureType?: string; cause?: { message: string; stack: string } | string };
}

export async function runNodeTest(c: RunContext): Promise<TestRun> {
  const files = c.files ?? (await findNodeTestFiles(c.root));
  if (files.length === 0) return { passed: 0, failed: 0, failures: [], details: [], output: 'no test files found', exitCode: 0 };
  return withReportDir(async (dir) => {
    const report = path.join(dir, 'events.jsonl');
    const args = ['--test', `--test-reporter=${REPORTER_URL}`, `--test-reporter-destination=${report}`, ...concurrencyFlag(), ...files];
    const raw = await spawnCapture({
      command: process.execPath,
      args,
      cwd: c.root,
      env: runnerEnv(nodeChildEnv(), c.env),
      timeoutMs: c.timeoutMs,
      ...(c.signal ? { signal: c.signal } : {}),
    });
    const text = await readIfThere(report);
    return testRun('node --test', c.root, raw, text === undefined ? undefined : parseNodeEvents(text, c.root), c.timeoutMs);
  });
}

/** --test-concurrency=1 (one file at a time, so the events' order is fixed) where this Node has it (20.10+). */
function concurrencyFlag(): string[] {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 10) ? ['--test-concurrency=1'] : [];
}

/** Counts and failures from the reporter's events: leaf tests only (a suite failing because a test in it failed is not counted again). */
export function parseNodeEvents(text: string, root: string): { passed: number; failures: Failure[] } {
  const events: Event[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line) as Event);
    } catch {
      // a line cut by a kill: the rest is still read
    }
  }
  const stderrOf = new Map<string, string[]>();
  for (const e of events) if (e.t === 'stderr' && e.file) stderrOf.set(e.file, [...(stderrOf.get(e.file) ?? []), e.message ?? '']);
  const names: string[] = [];
  const failures: Failure[] = [];
  let passed = 0;
  for (const e of events) {
    if (e.t === 'start' && e.name !== undefined && e.nesting !== undefined) {
      names.length = e.nesting;
      names[e.nesting] = e.name;
      continue;
    }
    if ((e.t !== 'pass' && e.t !== 'fail') || e.nesting === undefined || e.name === undefined) continue;
    names.length = e.nesting;
    if (e.suite || e.error?.failureType === 'subtestsFailed') continue;
    if (e.t === 'pass') {
      if (!e.skip && !e.todo) passed++;
      continue;
    }
    if (e.todo) continue;
    const isFile = e.nesting === 0 && e.file !== undefined && e.name === e.file;
    const name = isFile ? trimDetail(e.name, root) : [...names.slice(0, e.nesting), e.name].join(' > ');
    failures.push({ name, detail: trimDetail(detailOf(e, isFile ? stderrOf.get(e.file!) : undefined), root) });
  }
  return { passed, failures };
}

function detailOf(e: Event, stderr: string[] | undefined): string {
  if (stderr && stderr.length > 0)
    return stderr
      .join('')
      .split('\n')
      .filter((l) => !/^Node\.js v\d/.test(l))
      .join('\n');
  const cause = e.error?.cause;
  if (cause && typeof cause === 'object') return cause.stack || cause.message;
  return typeof cause === 'string' && cause !== '' ? cause : (e.error?.message ?? 'failed');
}
