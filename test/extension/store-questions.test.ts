import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunListing } from '../../src/store/files/checkpoint';
import type { RunState } from '../../src/store/state';
import { storeQuestions } from '../../src/extension/logic/store-questions';

function listing(runId: string, phase: string, pending: { kind: 'approval' | 'ladder'; callId: string; tool: string; args: string }[]): RunListing {
  const state = {
    runId,
    task: 'm1-done-after-delete',
    phase,
    pending: pending.map((p) => ({ ...p, askedAt: '2026-12-03T11:00:00.000Z' })),
  } as unknown as RunState;
  return { runId, file: `postgres://triage@/db (run ${runId})`, state, locked: false };
}

const ISSUE = JSON.stringify({
  title: '"done N" crashes the session when item N was deleted',
  cause: 'done-after-delete',
  body: 'Marking an item done after it was deleted ended the whole session with a stack trace:\n\n TypeError: …',
});

test("a paused run's approval is asked by what it acts on (the issue's title), not by the raw arguments", () => {
  const [q, ...rest] = storeQuestions([listing('r1', 'paused', [{ kind: 'approval', callId: 'toolu_1', tool: 'issue_file', args: ISSUE }])], () => false);
  assert.equal(rest.length, 0);
  assert.equal(q.key, 'r1:approval:toolu_1');
  assert.equal(q.title, 'File issue: "done N" crashes the session when item N was deleted');
  assert.equal(
    q.message,
    'Durable Triage: run r1 (m1-done-after-delete) waits for your approval of issue_file: File issue: "done N" crashes the session when item N was deleted',
  );
  assert.ok(!q.message.includes('{'), 'no JSON in the notification');
});

test('only approvals of paused runs that this window is not running are asked', () => {
  const qs = storeQuestions(
    [
      listing('done', 'done', [{ kind: 'approval', callId: 'a', tool: 'issue_file', args: ISSUE }]),
      listing('mine', 'paused', [{ kind: 'approval', callId: 'b', tool: 'issue_file', args: ISSUE }]),
      listing('ladder', 'paused', [{ kind: 'ladder', callId: 'c', tool: 'code_patch', args: '{"path":"a.js"}' }]),
      listing('two', 'paused', [
        { kind: 'approval', callId: 'd', tool: 'code_patch', args: '{"path":"src/a.js","patch":"-x\\n+y"}' },
        { kind: 'approval', callId: 'e', tool: 'issue_file', args: 'not json' },
      ]),
      { runId: 'corrupt', file: 'x', locked: false },
    ],
    (id) => id === 'mine',
  );
  assert.deepEqual(
    qs.map((q) => [q.runId, q.callId, q.title]),
    [
      ['two', 'd', 'Patch src/a.js'],
      ['two', 'e', 'issue_file (arguments are not valid JSON)'],
    ],
  );
});
