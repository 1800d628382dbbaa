import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalChoiceRow, approvalChoices, askedElsewhereMessage } from '../../src/extension/logic/approval-choices';

const saved = (runId: string, locked: boolean, callId = 'c1') => ({
  runId,
  locked,
  pending: [{ callId, tool: 'file_issue', kind: 'approval', title: `Issue of ${runId}` }],
});

test("a second window's picker marks the first window's question as asked there", () => {
  const cs = approvalChoices([], [saved('run-a', true)], false);
  assert.equal(cs.length, 1);
  assert.equal(cs[0].elsewhere, true);
  const row = approvalChoiceRow(cs[0]);
  assert.match(row.description, /asked in another window/);
  assert.match(row.detail, /answer it there/);
  assert.match(askedElsewhereMessage(cs[0]), /run run-a open; answer it there\. Nothing was answered here\./);
});

test('a paused run nobody has open is answerable here, listed before the ones asked elsewhere', () => {
  const cs = approvalChoices([], [saved('run-a', true), saved('run-b', false)], false);
  assert.deepEqual(
    cs.map((c) => [c.runId, c.elsewhere]),
    [
      ['run-b', false],
      ['run-a', true],
    ],
  );
  assert.doesNotMatch(approvalChoiceRow(cs[0]).description, /another window/);
});

test('questions asked in this window come alone; the ladder question only for Show Question', () => {
  const asked = [
    { runId: 'run-c', callId: 'x', tool: 'file_issue', kind: 'approval', title: 'T' },
    { runId: 'run-c', callId: 'y', tool: 'file_issue', kind: 'ladder' },
  ];
  assert.deepEqual(
    approvalChoices(asked, [saved('run-a', true)], false).map((c) => c.callId),
    ['x'],
  );
  const withLadder = approvalChoices(asked, [], true);
  assert.deepEqual(
    withLadder.map((c) => [c.callId, c.title, c.elsewhere]),
    [
      ['x', 'T', false],
      ['y', 'file_issue', false],
    ],
  );
});
