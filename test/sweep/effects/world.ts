/**
 * One scenario's world for the effects sweep: a real bare git repository as `origin` and a clone
 * of it as the user's checkout (the node fixture repository, its crash folder left out: the
 * crashes come from Sentry), the Sentry stand-in with the fixture's issues, the GitHub stand-in
 * as tracker, and a state folder. Judged after the run by counting the real things.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startGitHubStandin, type Standin } from '../../support/github-standin';
import { startSentryStandin, type SentryStandin } from '../../support/sentry-standin';
import { NODE_FIXTURE_ISSUES } from '../../support/sentry-issues';
import { readMarker } from '../../../src/tracker/github/marker';
import { CAUSES, fixText, git, keyedCommits, ORG, PROJECT, REPO, type Places } from './script';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'repos', 'node');
export const SENTRY_TOKEN = 'sntrys_effects_sweep_token';
const ID = { GIT_AUTHOR_NAME: 'Person', GIT_AUTHOR_EMAIL: 'person@example.com', GIT_COMMITTER_NAME: 'Person', GIT_COMMITTER_EMAIL: 'person@example.com' };

/** A bare remote with the fixture on main and a clone of it (with a user identity), made once and copied per scenario. */
export function makeTemplate(root: string): string {
  const dir = path.join(root, 'template');
  const remote = path.join(dir, 'remote.git');
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(FIXTURE, ws, { recursive: true });
  fs.rmSync(path.join(ws, 'crashes'), { recursive: true, force: true });
  const env = { ...process.env, ...ID };
  const run = (cwd: string, ...args: string[]): void => {
    execFileSync('git', ['-C', cwd, ...args], { env, stdio: 'ignore' });
  };
  run(dir, 'init', '--quiet', '--bare', '--initial-branch=main', remote);
  run(ws, 'init', '--quiet', '--initial-branch=main');
  run(ws, 'config', 'user.name', 'Person');
  run(ws, 'config', 'user.email', 'person@example.com');
  run(ws, 'add', '-A');
  run(ws, 'commit', '--quiet', '-m', 'first');
  run(ws, 'remote', 'add', 'origin', remote);
  run(ws, 'push', '--quiet', '--set-upstream', 'origin', 'main');
  return dir;
}

export interface World {
  dir: string;
  remote: string;
  workspace: string;
  state: string;
  gh: Standin;
  sentry: SentryStandin;
  places: Places;
  close(): Promise<void>;
}

/** A fresh copy of the template (origin pointed at the copy's remote) and fresh stand-ins. */
export async function makeWorld(template: string, dir: string): Promise<World> {
  fs.cpSync(template, dir, { recursive: true });
  const remote = path.join(dir, 'remote.git');
  const workspace = path.join(dir, 'ws');
  git(workspace, 'remote', 'set-url', 'origin', remote);
  const gh = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  const sentry = await startSentryStandin({ org: ORG, project: PROJECT, issues: NODE_FIXTURE_ISSUES.map((i) => ({ ...i })), token: SENTRY_TOKEN });
  return {
    dir,
    remote,
    workspace,
    state: path.join(dir, 'state'),
    gh,
    sentry,
    places: { githubUrl: gh.url, githubToken: gh.token, sentryUrl: sentry.url, sentryToken: SENTRY_TOKEN, workspace },
    close: async () => {
      await Promise.all([gh.close(), sentry.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Extra of each side effect beyond one per cause, counted from the real things. */
export interface EffectCounts {
  issues: number;
  commits: number;
  pulls: number;
  comments: number;
}

export interface EffectsJudgement {
  duplicates: EffectCounts;
  failedChecks: string[];
}

const extra = (n: number): number => Math.max(0, n - 1);

/** Counts, per cause: issues with its marker, commits with its Triage-Key trailer on its branch (local and remote), pull requests per head branch, Sentry comments with our marker. */
export function judgeEffects(w: World, done: boolean): EffectsJudgement {
  const failed: string[] = [];
  const dup: EffectCounts = { issues: 0, commits: 0, pulls: 0, comments: 0 };
  const issues = w.gh.issues(REPO).filter((i) => !i.pullRequest);
  const pulls = w.gh.pulls(REPO);
  const localAll = keyedCommits(w.workspace);
  const remoteAll = keyedCommits(w.remote);
  const fixes: { sha: string; c: (typeof CAUSES)[number] }[] = [];
  if (!done) failed.push('run finished');
  for (const c of CAUSES) {
    const n = issues.filter((i) => readMarker(i.body)?.marker.cause === c.cause).length;
    dup.issues += extra(n);
    if (n !== 1) failed.push(`${c.cause}: one issue (${n})`);

    const local = localAll.get(c.cause) ?? new Map<string, string[]>();
    const remote = remoteAll.get(c.cause) ?? new Map<string, string[]>();
    const localN = [...local.values()].reduce((s, x) => s + x.length, 0);
    const remoteN = [...remote.values()].reduce((s, x) => s + x.length, 0);
    dup.commits += extra(Math.max(localN, remoteN));
    if (local.size !== 1 || localN !== 1) failed.push(`${c.cause}: one branch with one commit (${local.size} branches, ${localN} commits)`);
    const [branch, shas] = [...local.entries()][0] ?? ['', []];
    if (remoteN !== 1 || remote.get(branch)?.[0] !== shas[0]) failed.push(`${c.cause}: its commit pushed`);
    else fixes.push({ sha: shas[0], c });

    const heads = new Map<string, number>();
    for (const p of pulls.filter((x) => x.head.startsWith(`triage/${c.cause}-`))) heads.set(p.head, (heads.get(p.head) ?? 0) + 1);
    const prs = [...heads.values()].reduce((s, x) => s + x, 0);
    for (const k of heads.values()) dup.pulls += extra(k);
    dup.pulls += extra(heads.size); // a second branch with its own pull request for the same cause
    if (prs !== 1 || !heads.has(branch)) failed.push(`${c.cause}: one pull request, from its branch (${prs})`);
    else if (!/Fixes #\d+/.test(pulls.find((p) => p.head === branch)?.body ?? '')) failed.push(`${c.cause}: the pull request fixes its issue`);

    const comments = w.sentry.comments(c.sentryId).filter((m) => readMarker(m.text)?.marker.cause === c.cause);
    dup.comments += extra(comments.length);
    if (comments.length !== 1) failed.push(`${c.cause}: one Sentry comment (${comments.length})`);
    else if (!/- Pull request #\d+/.test(comments[0].text)) failed.push(`${c.cause}: the Sentry comment links the pull request`);
  }
  if (fixes.length > 0) {
    const shown = git(w.remote, 'show', ...fixes.map((f) => `${f.sha}:${f.c.file}`));
    if (shown + '\n' !== fixes.map((f) => fixText(f.c.cause)).join('')) failed.push('the pushed commits hold the fixes');
  }
  if (git(w.workspace, 'status', '--porcelain', '--branch') !== '## main...origin/main') failed.push("the user's checkout untouched, on main");
  return { duplicates: dup, failedChecks: failed };
}
