/**
 * The whole Sentry -> pull request flow through the real CLI, for the tests that kill it or give
 * it bad input: a clone of the node fixture repository (dirty on purpose: a changed tracked file
 * and an untracked one) whose origin is a real bare repository, the Sentry and GitHub stand-ins
 * on 127.0.0.1, and a scripted model (answering by the conversation's place) that, for the top two
 * Sentry issues, files an issue, writes the fix in the cause's worktree, commits it, opens the
 * pull request and comments on the Sentry issue. `expectOnePerCause` checks the end: one of each
 * per cause, and the user's checkout byte for byte as it was.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { BIN } from './support';
import { startSentryStandin, type SentryStandin, type StandinSentryIssue } from '../support/sentry-standin';
import { NODE_FIXTURE_ISSUES } from '../support/sentry-issues';
import { startGitHubStandin, type Standin } from '../support/github-standin';
import { startTurnModel, type Turn, type TurnModel } from '../support/turn-model';
import { tempDir } from '../support/temp-dir';
import { readMarker } from '../../src/tracker/github/marker';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'repos', 'node');
export const REPO = 'acme/api';
export const SENTRY_TOKEN = 'sntrys_pr_flow_SECRET_do_not_save_me';
/** A Sentry token that reads but may not comment (no event:write scope). */
export const READ_ONLY_SENTRY_TOKEN = 'sntrys_pr_flow_READ_ONLY_do_not_save_me';

/** The two causes (the Sentry issues 101 and 102, the top two by events) and their fixes. */
export const CAUSES = [
  { cause: 'parse-duration-type-error', sentryId: '101', file: 'src/duration.js', fix: 'unknown units' },
  { cause: 'total-type-error', sentryId: '102', file: 'src/report.js', fix: 'an empty list' },
] as const;

const FIXED: Record<string, string> = {
  'src/duration.js': `'use strict';
const UNITS = { ms: { ms: 1 }, s: { ms: 1000 }, m: { ms: 60000 }, h: { ms: 3600000 } };
function parseDuration(text) {
  const m = /^(\\d+)([a-z]+)$/.exec(text.trim());
  if (!m || !UNITS[m[2]]) throw new SyntaxError(\`not a duration: \${text}\`);
  return Number(m[1]) * UNITS[m[2]].ms;
}
module.exports = { parseDuration };
`,
  'src/report.js': `'use strict';
function total(durations) {
  return durations.reduce((a, b) => a + b, 0);
}
module.exports = { total };
`,
};

/** The model's turns: per cause an issue, the fix, its commit, its pull request, the Sentry comment; then the answer. */
export const SCRIPT: Turn[] = [
  ...CAUSES.map((c) => ({ tool: 'issue_file', args: { title: `${c.cause}: crashes on ${c.fix}`, body: `Sentry issue ${c.sentryId}.`, cause: c.cause } })),
  ...CAUSES.map((c) => ({ tool: 'write_file', args: { path: c.file, content: FIXED[c.file], cause: c.cause } })),
  ...CAUSES.map((c) => ({ tool: 'commit_fix', args: { cause: c.cause, message: `Fix ${c.cause}: handle ${c.fix}` } })),
  ...CAUSES.map((c) => ({ tool: 'pull_request', args: { cause: c.cause, title: `Fix ${c.cause}`, body: `Handles ${c.fix}.` } })),
  ...CAUSES.map((c) => ({ tool: 'sentry_comment', args: { cause: c.cause } })),
  { text: 'Two causes: an issue, a branch, a pull request and a Sentry comment each.' },
];

export function sh(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

export interface Life {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  killedAt?: string;
}

export interface Flow {
  /** The GitHub stand-in's owner/name. */
  repo: string;
  ws: string;
  remote: string;
  state: string;
  sentry: SentryStandin;
  gh: Standin;
  model: TurnModel;
  args(...extra: string[]): string[];
  env: NodeJS.ProcessEnv;
  /** One life of the CLI in its own process group; SIGKILLed (the group) once it has printed `killAtLine` progress lines, if given. */
  life(args: string[], o?: { killAtLine?: number; env?: NodeJS.ProcessEnv }): Promise<Life>;
  /** The user's checkout: each working-tree file's hash (outside .git), HEAD and its branch. */
  checkout(): string;
}

export async function startFlow(t: TestContext): Promise<Flow> {
  return startFlowWith(t, { fixture: FIXTURE, repo: REPO, issues: () => NODE_FIXTURE_ISSUES.map((i) => ({ ...i })), script: SCRIPT, sentryLimit: 2 });
}

export interface FlowOptions {
  /** The repository's files, copied into the user's checkout (its `crashes/` left out). */
  fixture: string;
  /** The GitHub stand-in's owner/name; the Sentry project is acme/<name>. */
  repo: string;
  /** The Sentry project's issues, made once the checkout is set up (a real crash can be run there). */
  issues(checkout: string): StandinSentryIssue[];
  script: Turn[];
  /** How many of the top Sentry issues the run triages. */
  sentryLimit: number;
  /** The developer's set-up of the checkout after cloning (installs); done before the user's unsaved work is added. */
  prepare?(checkout: string): void;
  /** More environment for the CLI. */
  env?: NodeJS.ProcessEnv;
  /** More run flags. */
  runArgs?: string[];
}

export async function startFlowWith(t: TestContext, o: FlowOptions): Promise<Flow> {
  const ws = tempDir(t, 'triage-pr-flow-ws-');
  fs.cpSync(o.fixture, ws, { recursive: true });
  fs.rmSync(path.join(ws, 'crashes'), { recursive: true, force: true });
  sh(ws, 'init', '--quiet', '--initial-branch=main');
  sh(ws, 'add', '-A');
  sh(ws, 'commit', '--quiet', '-m', 'first');
  const remote = tempDir(t, 'triage-pr-flow-remote-');
  sh(remote, 'init', '--quiet', '--bare', '--initial-branch=main');
  sh(ws, 'remote', 'add', 'origin', remote);
  sh(ws, 'push', '--quiet', 'origin', 'main');
  o.prepare?.(ws);
  // The remote logs every ref a push changes (a push of a commit it has already changes none, and runs no hook).
  fs.writeFileSync(path.join(remote, 'hooks', 'post-receive'), '#!/bin/sh\ncat >> "$GIT_DIR/push.log"\n', { mode: 0o755 });
  // The user's own unsaved work: a changed tracked file, a staged new file and an untracked one.
  const tracked = sh(ws, 'ls-files').split('\n');
  const mine = tracked.includes('src/duration.js')
    ? 'src/duration.js'
    : tracked.find((f) => f !== '.gitignore' && !f.endsWith('.json') && !f.endsWith('.lock') && !f.endsWith('.yaml') && !f.endsWith('.sum'))!;
  fs.appendFileSync(path.join(ws, mine), mine === 'src/duration.js' ? '// my own unsaved work\n' : '\n');
  fs.writeFileSync(path.join(ws, 'staged.txt'), 'staged by me\n');
  sh(ws, 'add', 'staged.txt');
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'untracked\n');
  const state = tempDir(t, 'triage-pr-flow-state-');
  const [owner, project] = o.repo.split('/');
  const sentry = await startSentryStandin({
    org: owner,
    project,
    issues: o.issues(ws),
    token: SENTRY_TOKEN,
    readOnlyTokens: [READ_ONLY_SENTRY_TOKEN],
  });
  t.after(() => sentry.close());
  const gh = await startGitHubStandin({ repos: [o.repo], prefix: '/api/v3' });
  t.after(() => gh.close());
  const model = await startTurnModel(o.script);
  t.after(() => model.close());
  const env: NodeJS.ProcessEnv = {
    ANTHROPIC_API_KEY: 'sk-ant-test',
    OPENAI_API_KEY: '',
    SENTRY_AUTH_TOKEN: SENTRY_TOKEN,
    GITHUB_TOKEN: gh.token,
    GITHUB_API_URL: gh.url,
    ...o.env,
  };
  const args = (...extra: string[]): string[] => [
    'run',
    '--task',
    'crash-folder',
    '--workspace',
    ws,
    '--crashes',
    `sentry:${o.repo}`,
    '--sentry-url',
    sentry.url,
    '--sentry-limit',
    String(o.sentryLimit),
    '--state',
    state,
    '--model',
    'anthropic',
    '--model-name',
    'claude-sonnet-4-5',
    '--base-url',
    model.url,
    '--tracker',
    `github:${o.repo}`,
    '--pull-requests',
    '--approve',
    'yes',
    '--json',
    ...(o.runArgs ?? []),
    ...extra,
  ];
  const checkout = (): string => {
    const files = fs
      .readdirSync(ws, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !path.relative(ws, e.parentPath).split(path.sep).includes('.git'))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    const hashes = files.map((f) => `${path.relative(ws, f)} ${createHash('sha256').update(fs.readFileSync(f)).digest('hex')}`);
    return [...hashes, `HEAD ${sh(ws, 'rev-parse', 'HEAD')} on ${sh(ws, 'symbolic-ref', '--short', 'HEAD')}`, sh(ws, 'status', '--porcelain')].join('\n');
  };
  const life = (a: string[], lo: { killAtLine?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Life> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...a], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, ...lo.env } });
      let stdout = '';
      let stderr = '';
      let killedAt: string | undefined;
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => {
        stderr += d;
        if (lo.killAtLine === undefined || killedAt !== undefined) return;
        const lines = stderr.split('\n').slice(0, -1);
        if (lines.length < lo.killAtLine) return;
        killedAt = lines[lo.killAtLine - 1];
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // it ended just now
        }
      });
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ...(killedAt !== undefined ? { killedAt } : {}) }));
    });
  return { repo: o.repo, ws, remote, state, sentry, gh, model, args, env, life, checkout };
}

/** The run's ID from a life's first progress line ("run <id> (<task>), phase ..."). */
export function runIdOf(stderr: string): string {
  const m = /^run (\S+) \(/m.exec(stderr);
  assert.ok(m, `no run line in: ${stderr}`);
  return m[1];
}

/** What one cause ended with: its issue, its pull request, the PR's branch and the one commit on it. */
export interface CauseEnd {
  issue: { number: number; body?: string | null };
  pull: { number: number; head: string; body?: string | null };
  branch: string;
  commit: string;
}

/**
 * The end of a flow in `repo`, for causes named as the product names them: per cause exactly one
 * issue, one pull request (its head `triage/<cause>-<run>`, Fixes #N for that issue), one commit on
 * that branch pushed once, and one comment on its Sentry issue linking the PR; then the caller's
 * own checks of that cause's end. Returns each cause's end by cause.
 */
export function expectEachCause<C extends { cause: string; sentryId: string }>(
  f: Flow,
  causes: readonly C[],
  runId: string,
  why: string,
  more: (c: C, end: CauseEnd, comment: string) => void = () => undefined,
): Map<string, CauseEnd> {
  const issues = f.gh.issues(f.repo).filter((i) => !i.pullRequest);
  const pulls = f.gh.pulls(f.repo);
  assert.equal(issues.length, causes.length, `one issue per cause ${why}`);
  assert.equal(pulls.length, causes.length, `one pull request per cause ${why}`);
  const ends = new Map<string, CauseEnd>();
  for (const c of causes) {
    const issue = issues.filter((i) => readMarker(i.body)?.marker.cause === c.cause);
    assert.equal(issue.length, 1, `one issue for ${c.cause} ${why}`);
    const pull = pulls.filter((p) => readMarker(p.body)?.marker.cause === c.cause);
    assert.equal(pull.length, 1, `one pull request for ${c.cause} ${why}`);
    const branch = pull[0].head;
    assert.equal(branch, `triage/${c.cause}-${runId.split('-').pop()}`);
    assert.match(pull[0].body ?? '', new RegExp(`Fixes #${issue[0].number}\\n`));
    const commits = sh(f.ws, 'rev-list', `main..${branch}`).split('\n').filter(Boolean);
    assert.equal(commits.length, 1, `one commit on ${branch} ${why}`);
    assert.deepEqual(pushesOf(f, branch), [commits[0]], `${branch} pushed once ${why}`);
    const comments = f.sentry.comments(c.sentryId);
    assert.equal(comments.length, 1, `one comment on Sentry issue ${c.sentryId} (${c.cause}) ${why}`);
    assert.ok(comments[0].text.includes(`- Pull request #${pull[0].number}: `), comments[0].text);
    const end = { issue: issue[0], pull: pull[0], branch, commit: commits[0] };
    more(c, end, comments[0].text);
    ends.set(c.cause, end);
  }
  return ends;
}

/**
 * The end of the flow of the bundled sample (expectEachCause), and per cause the commit's
 * trailers, the branch on the remote as committed, the fixed file's text and the comment linking
 * the issue too; the checkout as `before`.
 */
export function expectOnePerCause(f: Flow, runId: string, before: string, why = ''): void {
  expectEachCause(f, CAUSES, runId, why, (c, end, comment) => {
    assert.match(end.pull.body ?? '', new RegExp(`Handles ${c.fix}\\.\\n\\nFixes #${end.issue.number}\\n`));
    assert.match(sh(f.ws, 'log', '-1', '--format=%B', end.commit), new RegExp(`\\nTriage-Key: \\S+\\nTriage-Run: ${runId}\\nTriage-Cause: ${c.cause}$`));
    assert.equal(sh(f.remote, 'rev-parse', `refs/heads/${end.branch}`), end.commit, `${end.branch} pushed as committed`);
    assert.equal(sh(f.ws, 'show', `${end.branch}:${c.file}`) + '\n', FIXED[c.file]);
    assert.ok(comment.includes(`- Issue #${end.issue.number}: `), comment);
    assert.ok(comment.includes(`- Pull request #${end.pull.number}: Fix ${c.cause} `), comment);
  });
  assert.equal(f.checkout(), before, "the user's checkout is byte for byte as it was");
}

/** The commits the remote's `branch` was set to, push by push (its post-receive log). */
export function pushesOf(f: Flow, branch: string): string[] {
  const log = path.join(f.remote, 'push.log');
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .filter((p) => p[2] === `refs/heads/${branch}`)
    .map((p) => p[1]);
}

/** No file of the state folder holds the Sentry token. */
export function expectNoToken(state: string): void {
  for (const e of fs.readdirSync(state, { recursive: true, withFileTypes: true }).filter((x) => x.isFile())) {
    const bytes = fs.readFileSync(path.join(e.parentPath, e.name));
    for (const token of [SENTRY_TOKEN, READ_ONLY_SENTRY_TOKEN]) assert.ok(!bytes.includes(token), `a Sentry token is not in ${e.name}`);
  }
}
