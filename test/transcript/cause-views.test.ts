// The views of the tools a run has with its options (commit_fix, pull_request, sentry_comment),
// the links block (http(s) URLs only), and the transcript's row per cause: its Sentry issue,
// issue, branch, commit, pull request, and what the ladder decided after a restart (issue 21 item 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTranscript } from '../../src/transcript/build';
import { transcriptText } from '../../src/transcript/text';
import { callLayout, describeCall, describeResult } from '../../src/transcript/calls';
import type { ToolCall } from '../../src/core/conversation';
import type { RunState } from '../../src/store/state';
import { webLink } from '../../src/tools/view';

const AT = '2026-12-01T00:00:00.000Z';
const SHA = 'a'.repeat(40);
const call = (name: string, args: unknown, id = 'c1'): ToolCall => ({ id, name, args: JSON.stringify(args) });
const PR_TEXT = 'opened pull request #7: Fix parse\nurl: https://github.com/o/r/pull/7\nbranch: triage/parse-run (draft)';
const COMMENTED = 'commented on Sentry issue API-101 (comment 100)\nurl: https://sentry.example/organizations/acme/issues/101/';

test('commit_fix, pull_request and sentry_comment have views of their own, not the generic one', () => {
  assert.deepEqual(describeCall(call('commit_fix', { cause: 'parse', message: 'Fix parse\n\nbody' })), {
    title: 'Commit fix (parse)',
    args: [{ kind: 'code', label: 'message', text: 'Fix parse\n\nbody' }],
  });
  assert.deepEqual(describeCall(call('pull_request', { cause: 'parse', title: 'Fix parse', body: 'B' })), {
    title: 'Open pull request: Fix parse',
    args: [{ kind: 'issue', title: 'Fix parse', body: 'B', cause: 'parse' }],
  });
  assert.deepEqual(describeCall(call('sentry_comment', { cause: 'parse' })), { title: 'Comment on the Sentry issue (parse)', args: [] });
  assert.deepEqual(
    ['commit_fix', 'pull_request', 'sentry_comment'].map((n) => callLayout(n)),
    [{ icon: 'git-commit' }, { icon: 'git-pull-request', unfolded: true }, { icon: 'comment' }],
  );
});

test('their results: the commit and branch; the pull request and the Sentry issue as links', () => {
  const commit = describeResult(call('commit_fix', {}), { callId: 'c1', content: `committed ${SHA} on triage/parse-run` });
  assert.deepEqual(commit, {
    summary: `committed ${SHA.slice(0, 12)} on triage/parse-run`,
    isError: false,
    blocks: [{ kind: 'code', label: 'commit', text: `${SHA}\nbranch: triage/parse-run` }],
    bytes: 70,
  });
  const pr = describeResult(call('pull_request', {}), { callId: 'c1', content: PR_TEXT });
  assert.equal(pr.summary, 'opened pull request #7 from triage/parse-run');
  assert.deepEqual(pr.blocks, [{ kind: 'links', links: [{ label: 'Pull request #7', url: 'https://github.com/o/r/pull/7' }] }]);
  const sc = describeResult(call('sentry_comment', {}), { callId: 'c1', content: COMMENTED });
  assert.equal(sc.summary, 'commented on Sentry issue API-101 (comment 100)');
  assert.deepEqual(sc.blocks, [{ kind: 'links', links: [{ label: 'Sentry issue', url: 'https://sentry.example/organizations/acme/issues/101/' }] }]);
  const err = describeResult(call('pull_request', {}), { callId: 'c1', content: 'pull_request: nothing is committed', isError: true });
  assert.deepEqual([err.isError, err.blocks], [true, []]);
});

test('only http(s) URLs become links: a saved javascript:, command: or file: URL is not one', () => {
  for (const bad of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'file:///etc/passwd', 'vscode://x', 'not a url']) {
    assert.equal(webLink(bad), undefined, bad);
    const pr = describeResult(call('pull_request', {}), { callId: 'c1', content: `opened pull request #7: T\nurl: ${bad}\nbranch: b` });
    assert.deepEqual(pr.blocks, [], bad);
    const sc = describeResult(call('sentry_comment', {}), { callId: 'c1', content: `commented on Sentry issue X (comment 1)\nurl: ${bad}` });
    assert.deepEqual(sc.blocks, [], bad);
  }
  assert.equal(webLink('http://127.0.0.1:9/x'), 'http://127.0.0.1:9/x');
});

function sentryRun(): RunState {
  const calls = [
    call('issue_file', { title: 'Parse crashes', body: 'B', cause: 'parse' }, 'c0'),
    call('commit_fix', { cause: 'parse', message: 'Fix parse' }, 'c1'),
    call('pull_request', { cause: 'parse', title: 'Fix parse', body: 'B' }, 'c2'),
    call('sentry_comment', { cause: 'parse' }, 'c3'),
  ];
  const results = ['filed issue #3: Parse crashes\nurl: https://github.com/o/r/issues/3', `committed ${SHA} on triage/parse-run`, PR_TEXT, COMMENTED].map(
    (content, i) => ({ callId: `c${i}`, content }),
  );
  return {
    version: 1,
    runId: 'run',
    task: 'crash-folder',
    createdAt: AT,
    updatedAt: AT,
    config: {
      workspace: '/w',
      provider: 'openai',
      model: 'm',
      keys: true,
      crashGroups: [
        {
          cause: 'parse',
          signature: 'TypeError @ parse',
          reports: [],
          sentry: {
            id: '101',
            shortId: 'API-101',
            title: 'TypeError',
            count: 3,
            userCount: 1,
            permalink: 'https://sentry.example/organizations/acme/issues/101/',
          },
        },
        {
          cause: 'other',
          signature: 'Error @ x',
          reports: [],
          sentry: { id: '102', title: 'Error', count: 1, userCount: 1, permalink: 'javascript:alert(1)' },
        },
      ],
    },
    phase: 'done',
    answer: 'done',
    system: 's',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', calls },
      { role: 'tool', results },
      { role: 'assistant', text: 'done' },
    ],
    usage: { inputTokens: 0, outputTokens: 0, dollars: 0 },
    turns: 2,
    restarts: 1,
  } as unknown as RunState;
}

test("per cause: the Sentry issue, issue, branch, commit, pull request, and the ladder's decision after a restart", () => {
  const t = buildTranscript(sentryRun(), {
    events: [
      { type: 'started', at: AT } as never,
      { type: 'restarted', at: AT, restarts: 1 } as never,
      { type: 'ladder', at: AT, callId: 'c2', tool: 'pull_request', rung: 'lookup', outcome: 'done' },
    ],
    skipped: 0,
  });
  assert.deepEqual(t.causes?.[0], {
    cause: 'parse',
    sentry: { label: 'API-101', url: 'https://sentry.example/organizations/acme/issues/101/' },
    issue: { number: 3, url: 'https://github.com/o/r/issues/3' },
    branch: 'triage/parse-run',
    commit: SHA,
    pullRequest: { number: 7, url: 'https://github.com/o/r/pull/7' },
    sentryComment: '100',
    ladder: [t.causes![0].ladder[0]],
  });
  assert.match(t.causes![0].ladder[0], /Open pull request: Fix parse/);
  assert.deepEqual(t.causes?.[1], { cause: 'other', sentry: { label: '102' }, ladder: [] }, 'a permalink that is no http(s) URL is not linked');
  const text = transcriptText(t);
  assert.match(
    text,
    new RegExp(
      `Per cause:\\n  parse: Sentry API-101 https://sentry\\.example/organizations/acme/issues/101/ \\(commented, 100\\) · issue #3 https://github\\.com/o/r/issues/3 · branch triage/parse-run · commit ${SHA.slice(0, 12)} · PR #7 https://github\\.com/o/r/pull/7\\n    » .*Open pull request: Fix parse.*\\n  other: Sentry 102\\n`,
    ),
  );
});

test('a run of a folder of reports without pull requests has no per-cause rows (its issues are listed as before)', () => {
  const s = sentryRun();
  s.config.crashGroups = s.config.crashGroups!.map((g) => ({ cause: g.cause, signature: g.signature, reports: ['crashes/a.log'] }));
  s.messages = s.messages.slice(0, 1);
  assert.equal(buildTranscript(s).causes, undefined);
});

test("a file written in a cause's worktree is listed by its cause and its path there, not the worktree's absolute path", () => {
  const s = sentryRun();
  const abs = '/state/worktrees/run-1/parse-run/src/parse.js';
  s.files = {
    [abs]: {
      sha256: SHA.slice(0, 64).padEnd(64, 'b'),
      size: 3,
      callId: 'c1',
      writtenAt: AT,
      before: 'absent',
      worktree: { cause: 'parse', dir: '/state/worktrees/run-1/parse-run', path: 'src/parse.js' },
    },
    'notes.md': { sha256: 'c'.repeat(64), size: 1, callId: 'c1', writtenAt: AT, before: 'absent' },
  };
  const t = buildTranscript(s);
  assert.deepEqual(
    t.files.map((f) => [f.path, f.label]),
    [
      [abs, 'parse: src/parse.js'],
      ['notes.md', undefined],
    ],
  );
  assert.match(transcriptText(t), /Files written:\n {2}created {2}parse: src\/parse\.js\n {2}created {2}notes\.md/);
});
