/**
 * Judging a finished run against its task's checks (checklist.ts): the run, its
 * workspace, and the tracker issues it filed. Each check says what it found in `detail`,
 * passed or not. Regression tests are run twice: against a fresh copy of the original
 * sample (they must fail there) and in the final workspace (they must pass).
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunState } from '../../store/state';
import { checkWorkspace, ledgerPath } from '../../workspace/ledger';
import { runNodeTests } from '../testrun';
import type { TaskSpec, GroupSpec } from './catalog';
import type { CheckDef } from './checklist';
import { hashTree, type TreeHashes } from './tree';

export interface CheckResult {
  name: string;
  passed: boolean;
  detail: string;
}

/** The fields of a tracker issue the checks read (a TrackerIssue has them all). */
export interface JudgedIssue {
  number: number;
  title: string;
  body: string;
  cause: string;
}

export interface JudgedRun {
  state: RunState;
  workspace: string;
  /** The tracker issues of this run's causes: those it filed, and for a cause it did not file, the open issue already filed for it (see causeIssues). */
  issues: JudgedIssue[];
}

/**
 * The issues the checks judge: the run's own, plus, for each cause the run filed nothing for,
 * the issues already filed for it in the workspace (a new run over causes filed before finds
 * them filed and rightly files nothing: each such issue is the cause's issue).
 */
export function causeIssues<I extends JudgedIssue>(own: readonly I[], existing: readonly I[]): I[] {
  const covered = new Set(own.map((i) => i.cause));
  const out = [...own];
  for (const i of existing) if (!covered.has(i.cause) && !out.some((o) => o.number === i.number)) out.push(i);
  return out;
}

interface TestOutcome {
  passed: number;
  failed: number;
  exitCode: number | null;
}

/** What the checks share: computed once per judgement. */
interface Evidence {
  task: TaskSpec;
  run: JudgedRun;
  sample: TreeHashes;
  workspace: TreeHashes;
  suite: TestOutcome;
  before: Map<string, TestOutcome>;
  after: Map<string, TestOutcome>;
}

export async function judge(task: TaskSpec, run: JudgedRun, signal?: AbortSignal): Promise<CheckResult[]> {
  const [sample, workspace] = await Promise.all([hashTree(task.sample), hashTree(run.workspace)]);
  const written = task.groups.filter((g) => workspace.has(g.test));
  const [suite, before, after] = await Promise.all([
    runTests(run.workspace, undefined, signal),
    testsOnOriginal(task, run.workspace, written, signal),
    inSequence(written, async (g) => [g.cause, await runTests(run.workspace, [g.test], signal)] as const),
  ]);
  const ev: Evidence = { task, run, sample, workspace, suite, before, after: new Map(after) };
  const results: CheckResult[] = [];
  for (const c of task.checks) results.push({ name: c.name, ...(await judgeOne(c, ev)) });
  return results;
}

async function runTests(workspace: string, files: string[] | undefined, signal?: AbortSignal): Promise<TestOutcome> {
  const r = await runNodeTests(workspace, files, signal);
  return { passed: r.passed, failed: r.failed, exitCode: r.exitCode };
}

/** Copies the original sample to a temp folder, adds the run's regression tests, and runs each there. */
async function testsOnOriginal(task: TaskSpec, workspace: string, groups: GroupSpec[], signal?: AbortSignal): Promise<Map<string, TestOutcome>> {
  const out = new Map<string, TestOutcome>();
  if (groups.length === 0) return out;
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-judge-'));
  try {
    await fs.cp(task.sample, tmp, { recursive: true });
    for (const g of groups) {
      const dest = path.join(tmp, ...g.test.split('/'));
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await fs.copyFile(path.join(workspace, ...g.test.split('/')), dest);
    }
    for (const [cause, r] of await inSequence(groups, async (g) => [g.cause, await runTests(tmp, [g.test], signal)] as const)) out.set(cause, r);
    return out;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

async function inSequence<T, R>(xs: T[], f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const x of xs) out.push(await f(x));
  return out;
}

type Verdict = { passed: boolean; detail: string };
const pass = (detail: string): Verdict => ({ passed: true, detail });
const fail = (detail: string): Verdict => ({ passed: false, detail });

function tests(r: TestOutcome): string {
  return `${r.passed} passed, ${r.failed} failed, exit ${r.exitCode}`;
}

function issueList(issues: JudgedIssue[]): string {
  return issues.map((i) => `#${i.number}`).join(', ');
}

async function judgeOne(c: CheckDef, ev: Evidence): Promise<Verdict> {
  const { run, task } = ev;
  const state = run.state;
  switch (c.kind) {
    case 'run-done':
      if (state.phase !== 'done') return fail(`the run is in phase ${state.phase}, not done`);
      if (!state.answer?.trim()) return fail('the run is done but has no answer');
      return pass(`done after ${state.turns} turns`);
    case 'suite-passes':
      return ev.suite.exitCode === 0 && ev.suite.failed === 0 && ev.suite.passed > 0 ? pass(tests(ev.suite)) : fail(tests(ev.suite));
    case 'no-duplicate-issues': {
      const causes = new Set(task.groups.map((g) => g.cause));
      const problems: string[] = [];
      const byCause = new Map<string, JudgedIssue[]>();
      for (const i of run.issues) byCause.set(i.cause, [...(byCause.get(i.cause) ?? []), i]);
      for (const [cause, list] of byCause) {
        if (list.length > 1) problems.push(`${list.length} issues for ${cause} (${issueList(list)})`);
        if (!causes.has(cause)) problems.push(`${issueList(list)} has cause "${cause}", which is no crash group of the task`);
      }
      return problems.length === 0 ? pass(`${run.issues.length} issues, one per cause`) : fail(problems.join('; '));
    }
    case 'answer-names-issues': {
      const answer = state.answer ?? '';
      if (run.issues.length === 0) return fail('the run filed no issues');
      const missing = run.issues.filter((i) => !new RegExp(`#${i.number}(?!\\d)`).test(answer));
      return missing.length === 0 ? pass(`names ${issueList(run.issues)}`) : fail(`the answer does not name ${issueList(missing)}`);
    }
    case 'ledger-matches':
      return ledgerVerdict(ev);
    case 'originals-untouched': {
      const changed: string[] = [];
      for (const [rel, sha] of ev.sample) {
        if (!rel.startsWith('crashes/') && !rel.startsWith('test/')) continue;
        const now = ev.workspace.get(rel);
        if (now !== sha) changed.push(`${rel} ${now === undefined ? 'is missing' : 'was changed'}`);
      }
      return changed.length === 0 ? pass('crashes/ and the existing tests are as bundled') : fail(changed.join('; '));
    }
    case 'one-issue': {
      const list = run.issues.filter((i) => i.cause === c.cause);
      if (list.length === 1) return pass(`#${list[0].number}: ${list[0].title}`);
      return fail(list.length === 0 ? `no issue has cause ${c.cause}` : `${list.length} issues have cause ${c.cause} (${issueList(list)})`);
    }
    case 'issue-cites-report': {
      const list = run.issues.filter((i) => i.cause === c.cause);
      if (list.length === 0) return fail(`no issue has cause ${c.cause}`);
      const dir = `crashes/${c.cause}/`;
      const reports = [...ev.sample.keys()].filter((k) => k.startsWith(dir)).map((k) => k.slice(dir.length));
      const uncited = list.filter((i) => !reports.some((r) => i.body.includes(r)));
      if (uncited.length === 0) return pass(`${issueList(list)} cites ${reports.filter((r) => list[0].body.includes(r)).join(', ')}`);
      return fail(`${issueList(uncited)} cites none of ${dir}: ${reports.join(', ')}`);
    }
    case 'test-written': {
      const g = group(task, c.cause);
      if (!ev.workspace.has(g.test)) return fail(`${g.test} does not exist`);
      if (!hasOwn(state.files, g.test)) return fail(`${g.test} exists but the run did not write it (it is not in the ledger)`);
      return pass(g.test);
    }
    case 'test-fails-before': {
      const g = group(task, c.cause);
      const r = ev.before.get(c.cause);
      if (!r) return fail(`${g.test} does not exist`);
      return r.failed > 0 || r.exitCode !== 0
        ? pass(`on the original sample: ${tests(r)}`)
        : fail(`it passes on the original code too (${tests(r)}), so it does not catch the bug`);
    }
    case 'test-passes-after': {
      const g = group(task, c.cause);
      const r = ev.after.get(c.cause);
      if (!r) return fail(`${g.test} does not exist`);
      return r.exitCode === 0 && r.failed === 0 && r.passed > 0 ? pass(tests(r)) : fail(`in the final workspace: ${tests(r)}`);
    }
    case 'fix-changes-file': {
      const g = group(task, c.cause);
      const now = ev.workspace.get(g.file);
      if (now === undefined) return fail(`${g.file} is missing`);
      if (now === ev.sample.get(g.file)) return fail(`${g.file} is unchanged`);
      const rec = hasOwn(state.files, g.file) ? state.files![g.file] : undefined;
      if (!rec) return fail(`${g.file} changed, but not by the run (it is not in the ledger)`);
      if (rec.sha256 !== now) return fail(`${g.file} changed after the run wrote it`);
      return pass(`${g.file} changed by call ${rec.callId}`);
    }
  }
}

async function ledgerVerdict(ev: Evidence): Promise<Verdict> {
  const files = ev.run.state.files ?? {};
  const problems: string[] = [];
  const inside: typeof files = {};
  for (const [rel, rec] of Object.entries(files)) {
    const why = rec.worktree ? undefined : pathProblem(rel); // a worktree's file is keyed by its absolute path
    if (why) problems.push(`ledger path ${JSON.stringify(rel)} ${why}`);
    else Object.defineProperty(inside, rel, { value: rec, enumerable: true });
  }
  for (const ch of await checkWorkspace(ev.run.workspace, inside))
    problems.push(`${ch.path} ${ch.actual === null ? 'is missing' : 'no longer matches its recorded SHA-256'}`);
  for (const [rel, sha] of ev.workspace) {
    if (ev.sample.get(rel) !== sha && !hasOwn(files, rel)) problems.push(`${rel} ${ev.sample.has(rel) ? 'changed' : 'was added'} but is not in the ledger`);
  }
  const n = Object.keys(files).length;
  return problems.length === 0 ? pass(`${n} written files, all recorded and unchanged`) : fail(problems.join('; '));
}

/** Why a ledger key is not a normalised path inside the workspace, or undefined when it is one. */
function pathProblem(rel: string): string | undefined {
  try {
    return ledgerPath(rel) === rel ? undefined : 'is not normalised';
  } catch {
    return 'is outside the workspace';
  }
}

function group(task: TaskSpec, cause: string): GroupSpec {
  const g = task.groups.find((x) => x.cause === cause);
  if (!g) throw new Error(`task ${task.name} has no group ${cause}`);
  return g;
}

function hasOwn(o: object | undefined, k: string): boolean {
  return o !== undefined && Object.hasOwn(o, k);
}
