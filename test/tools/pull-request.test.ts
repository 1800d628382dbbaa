/**
 * commit_fix and pull_request through the durable loop, with real git (a bare remote, a clone)
 * and the GitHub stand-in: a crash right after each acts and before its result is saved, then a
 * restart. The ladder's lookup finds the commit (by its Triage-Key trailer) and the pull request
 * (by head branch and marker): one commit and one pull request per cause, nobody asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import type { LoopEvent } from '../../src/agent/loop';
import { openStore } from '../../src/store/open-store';
import { runPath, readRun } from '../../src/store/files/checkpoint';
import { TOOL_ACTED } from '../../src/store/crash-points';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { resolveBase } from '../../src/git/base';
import { CauseBranches } from '../../src/git/cause-branches';
import { GitHubTracker } from '../../src/tracker/github/github-tracker';
import { GitHubPulls } from '../../src/tracker/github/pulls';
import { readMarker } from '../../src/tracker/github/marker';
import { writeFileTool } from '../../src/tools/write-file';
import { inCauseWorktree } from '../../src/tools/in-cause-worktree';
import { commitFixTool } from '../../src/tools/commit-fix';
import { pullRequestTool } from '../../src/tools/pull-request';
import { ScriptModel, Person, freshState, reply } from '../agent/support';
import { startGitHubStandin } from '../support/github-standin';
import { makeRepos, sh } from '../git/support';

const REPO = 'octo-org/durations';
const CAUSE = 'unit-type-error';
const FIXED = 'exports.parse = (s) => (s.unit ?? "").length;\n';
const SCRIPT = [
  reply(0, [['write_file', { path: 'src/duration.js', content: FIXED, cause: CAUSE }]]),
  reply(1, [['commit_fix', { cause: CAUSE, message: 'Fix parse on a missing unit' }]]),
  reply(2, [['pull_request', { cause: CAUSE, title: 'Fix parse on a missing unit', body: 'Crash reports: crashes/a.log.' }]]),
  reply(3, [], 'done'),
];

async function scenario(t: import('node:test').TestContext, dieAfter: string | undefined) {
  const r = makeRepos();
  const standin = await startGitHubStandin({ repos: [REPO] });
  t.after(async () => {
    await standin.close();
    fs.rmSync(r.root, { recursive: true, force: true });
  });
  const [owner, repo] = REPO.split('/');
  const gh = new GitHubTracker({ owner, repo, token: standin.token, apiUrl: standin.url, timeoutMs: 5000 });
  const issue = (await gh.fileIssue({ title: 'parse crashes', body: 'crash', cause: CAUSE }, { runId: 'run' })).issue;
  const branches = new CauseBranches({ ...(await resolveBase(r.checkout, undefined)), runId: 'run', worktreesDir: path.join(r.state, 'worktrees') });
  const person = new Person();
  const events: LoopEvent[] = [];
  const model = new ScriptModel(SCRIPT);
  const parts = (): RunParts => ({
    model,
    tools: toolSet([
      inCauseWorktree(writeFileTool({}), branches, [CAUSE]),
      commitFixTool({ branches, causes: [CAUSE], keys: true }),
      pullRequestTool({ branches, pulls: new GitHubPulls(gh, owner, repo), tracker: gh, causes: [CAUSE], keys: true, remote: 'origin', draft: true }),
    ]),
    approver: person,
  });
  const dir = path.join(r.root, 'runs');
  fs.mkdirSync(dir);
  let finished = false;
  for (let life = 0; life < 3 && !finished; life++) {
    const crash = (p: string, d?: { tool?: string }): void => {
      if (life === 0 && p === TOOL_ACTED && d?.tool === dieAfter) throw new SimulatedCrash(p);
    };
    const common = { runStore: openStore(dir), parts, crash, store: { sync: false }, onEvent: (e: LoopEvent) => events.push(e) };
    try {
      const res = fs.existsSync(runPath(dir, 'run'))
        ? await resumeRun({ ...common, runId: 'run' })
        : await startRun({ ...common, state: freshState('run', r.checkout) });
      finished = res.phase === 'done';
    } catch (e) {
      if (!(e instanceof SimulatedCrash)) throw e;
    }
  }
  assert.ok(finished, 'the run finished');
  const branch = branches.branch(CAUSE);
  const commits = sh(r.checkout, 'rev-list', `${branches.o.baseSha}..${branch}`).split('\n').filter(Boolean);
  const pulls = standin.pulls(REPO);
  const state = await readRun(dir, 'run');
  return { r, standin, issue, branch, commits, pulls, person, events, state };
}

for (const dieAfter of [undefined, 'commit_fix', 'pull_request']) {
  test(`one commit and one pull request for the cause${dieAfter ? `, with a crash right after ${dieAfter} acted` : ''}`, async (t) => {
    const s = await scenario(t, dieAfter);
    assert.equal(s.commits.length, 1, 'one commit on the branch');
    assert.equal(s.pulls.length, 1, 'one pull request');
    const p = s.pulls[0];
    assert.deepEqual([p.head, p.base, p.draft, p.state], [s.branch, 'main', true, 'open']);
    assert.match(p.body ?? '', new RegExp(`Crash reports: crashes/a\\.log\\.\\n\\nFixes #${s.issue.number}\\n`));
    assert.equal(readMarker(p.body)?.marker.cause, CAUSE);
    assert.equal(sh(s.r.remote, 'rev-parse', `refs/heads/${s.branch}`), s.commits[0], 'the commit is pushed');
    assert.equal(sh(s.r.checkout, 'show', `${s.branch}:src/duration.js`) + '\n', '' + 'exports.parse = (s) => (s.unit ?? "").length;\n');
    assert.equal(sh(s.r.checkout, 'status', '--porcelain'), '', "the user's checkout is untouched");
    assert.equal(s.person.approvals >= 1, true, 'a person approved the pull request');
    assert.equal(s.person.questions, 0, 'nobody was asked what happened: the lookup knew');
    const results = s.state.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
    assert.ok(
      results.some((x) => /^committed [0-9a-f]{40} on triage\/unit-type-error-run$/.test(x.content)),
      'commit_fix answered with the commit',
    );
    assert.ok(
      results.some((x) =>
        new RegExp(`^opened pull request #${p.number}: Fix parse on a missing unit\\nurl: https://github.com/${REPO}/pull/${p.number}`).test(x.content),
      ),
    );
    if (dieAfter) {
      const ladder = s.events.filter((e) => e.type === 'ladder');
      assert.deepEqual(
        ladder.map((e) => e.type === 'ladder' && [e.call.name, e.step, e.outcome]),
        [[dieAfter, 'lookup', 'done']],
        'after the restart the lookup found what the call did',
      );
    }
  });
}
