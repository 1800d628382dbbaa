/**
 * Running a workspace's tests with `node --test` (the sample workspaces are plain
 * JavaScript with test files named *.test.js; nothing is installed). Used by the run_tests
 * tool and by the task checks (a regression test must fail before the fix and pass after).
 *
 * The result is deterministic for the same workspace state, so a replayed run sees the same
 * text: the TAP reporter is used with one file at a time, durations are dropped, and the
 * workspace's absolute path is replaced with ".".
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveInWorkspace, toRel, ToolInputError } from './workspace-paths';
import { walkFiles } from './tools/walk';
import { nodeChildEnv } from './node-child';

export const TEST_TIMEOUT_MS = 60_000;
/** How much of the child's output is kept (the rest is dropped, with a note). */
const OUTPUT_CAP = 256 * 1024;

export interface TestRun {
  passed: number;
  failed: number;
  /** Names of the failing tests ("suite > test"; a file that failed to load is named by its path). */
  failures: string[];
  /** For each failure, in the same order: its error, expected/actual and stack, trimmed. */
  details: string[];
  /** The reporter's whole output, normalized (no durations, "." for the workspace root). */
  output: string;
  /** The child's exit code; -1 when it was killed (timeout). */
  exitCode: number;
  timedOut?: boolean;
}

export interface TestRunOptions {
  timeoutMs?: number;
}

/** Test files of a workspace: every *.test.js / .cjs / .mjs outside node_modules and .git, sorted. */
export async function findTestFiles(workspace: string): Promise<string[]> {
  return (await walkFiles(workspace, path.resolve(workspace))).filter((f) => /\.test\.[cm]?js$/.test(f));
}

/**
 * Runs `files` (workspace-relative; default: every test file) with `node --test`. Throws
 * ToolInputError for a file outside the workspace or missing; rejects with the signal's
 * reason when `signal` aborts (the child is killed).
 */
export async function runNodeTests(workspace: string, files?: string[], signal?: AbortSignal, o: TestRunOptions = {}): Promise<TestRun> {
  const root = path.resolve(workspace);
  const rels = files === undefined ? await findTestFiles(root) : files.map((f) => checkedTestFile(root, f));
  if (rels.length === 0) return { passed: 0, failed: 0, failures: [], details: [], output: 'no test files found', exitCode: 0 };
  const raw = await spawnNode(root, rels, signal, o.timeoutMs ?? TEST_TIMEOUT_MS);
  const output = normalize(raw.text, root);
  const parsed = parseTap(output);
  const r: TestRun = { ...parsed, output, exitCode: raw.exitCode };
  if (raw.timedOut) {
    r.timedOut = true;
    r.failures.push(`timed out after ${Math.round((o.timeoutMs ?? TEST_TIMEOUT_MS) / 1000)} s`);
    r.details.push('the test run was stopped; a test may hang (an open handle, a pending promise, an endless loop)');
    r.failed = Math.max(r.failed, 1);
  } else if (r.exitCode !== 0 && r.failures.length === 0) {
    r.failures.push(`node --test exited with code ${r.exitCode}`);
    r.details.push(lastLines(output, 20));
    r.failed = Math.max(r.failed, 1);
  }
  return r;
}

function checkedTestFile(root: string, f: unknown): string {
  const abs = resolveInWorkspace(root, f);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new ToolInputError(`test file "${String(f)}" does not exist`);
  }
  if (!st.isFile()) throw new ToolInputError(`"${String(f)}" is not a file; name test files, e.g. "test/x.test.js"`);
  return toRel(root, abs);
}

interface RawRun {
  text: string;
  exitCode: number;
  timedOut: boolean;
}

function spawnNode(cwd: string, files: string[], signal: AbortSignal | undefined, timeoutMs: number): Promise<RawRun> {
  signal?.throwIfAborted();
  const env: NodeJS.ProcessEnv = { ...nodeChildEnv(), NO_COLOR: '1', FORCE_COLOR: '0' };
  // Inherited from a parent `node --test`, these would turn the child's output into the parent's protocol.
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  const args = ['--test', '--test-reporter=tap', ...concurrencyFlag(), ...files];
  return new Promise<RawRun>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (b: Buffer): void => {
      if (size < OUTPUT_CAP) chunks.push(b);
      size += b.length;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = (): void => kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('the test run was cancelled'));
      let text = Buffer.concat(chunks).toString('utf8');
      if (size > OUTPUT_CAP) text = text.slice(0, OUTPUT_CAP) + `\n# [output cut: ${size} bytes in all]\n`;
      resolve({ text, exitCode: code ?? -1, timedOut });
    });
  });
}

/** --test-concurrency=1 (one file at a time, so the output's order is fixed) where this Node has it (20.10+). */
function concurrencyFlag(): string[] {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 10) ? ['--test-concurrency=1'] : [];
}

/** Drops durations and replaces the workspace's absolute path (and its real path, and file:// URLs of it) with ".". */
export function normalize(text: string, root: string): string {
  const roots = new Set([root]);
  try {
    roots.add(fs.realpathSync(root));
  } catch {
    // the root is gone; nothing more to replace
  }
  let out = text.replace(/\r\n/g, '\n');
  for (const r of [...roots].sort((a, b) => b.length - a.length)) {
    out = out.split(`file://${r}`).join('.').split(r).join('.');
  }
  return out
    .split('\n')
    .filter((l) => !/^\s*(# )?duration_ms[: ]/.test(l))
    .join('\n');
}

const YAML_SKIP = /^(type|failureType|exitCode|signal|code):/;

/** Counts and failing tests from TAP text (Node's reporter: 4 spaces per nesting level). */
export function parseTap(text: string): Pick<TestRun, 'passed' | 'failed' | 'failures' | 'details'> {
  const lines = text.split('\n');
  const names: string[] = [];
  const failures: string[] = [];
  const details: string[] = [];
  const summary = new Map<string, number>();
  let comments: string[] = [];
  let pass = 0;
  let fail = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const sub = /^( *)# Subtest: (.*)$/.exec(line);
    if (sub) {
      const level = Math.floor(sub[1].length / 4);
      names.length = level;
      names[level] = sub[2];
      continue;
    }
    const sum = /^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
    if (sum) {
      summary.set(sum[1], Number(sum[2]));
      continue;
    }
    const res = /^( *)(not ok|ok) \d+ - (.*)$/.exec(line);
    if (!res) {
      const c = /^ *# (.*)$/.exec(line);
      if (c && !/^Node\.js v\d/.test(c[1]) && !c[1].includes('node:internal')) comments.push(c[1]);
      continue;
    }
    const indent = res[1].length;
    const level = Math.floor(indent / 4);
    const name = res[3].replace(/ # (SKIP|TODO)\b.*$/, '');
    const todo = / # TODO\b/.test(res[3]);
    const yaml: string[] = [];
    if (lines[i + 1] === `${' '.repeat(indent + 2)}---`) {
      let j = i + 2;
      for (; j < lines.length && lines[j] !== `${' '.repeat(indent + 2)}...`; j++) yaml.push(lines[j].slice(indent + 2));
      i = j;
    }
    const leaf = !yaml.some((y) => /^failureType: 'subtestsFailed'/.test(y)) && !yaml.includes("type: 'suite'");
    if (res[2] === 'not ok' && !todo && leaf) {
      failures.push([...names.slice(0, level), name].join(' > '));
      details.push([...comments, ...trimYaml(yaml)].join('\n'));
      fail++;
    } else if (res[2] === 'ok' && leaf) {
      pass++;
    }
    names.length = level;
    comments = [];
  }
  const passed = summary.get('pass') ?? pass;
  const failed = summary.has('fail') ? (summary.get('fail') ?? 0) + (summary.get('cancelled') ?? 0) : fail;
  return { passed, failed, failures, details };
}

function trimYaml(yaml: string[]): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const y of yaml) {
    const top = !y.startsWith(' ');
    if (top) skipping = YAML_SKIP.test(y);
    if (skipping) continue;
    if (/\(node:|^\s*node:/.test(y)) continue; // Node's own stack frames say nothing about the workspace
    out.push(y);
  }
  return out;
}

function lastLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}
