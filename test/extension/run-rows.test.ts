import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunInfo } from '../../src/triage/runinfo';
import { childRows, panelTitle, runPickDescription, runRow, shortRunId, waitingBadge, waitingCount } from '../../src/extension/logic/run-rows';

const SHA = 'a'.repeat(64);
function info(o: Partial<RunInfo> = {}): RunInfo {
  return {
    runId: 'm1-done-after-delete-20251202T101010Z-k3x9q2ab',
    file: '/s/runs/m1-done-after-delete-20251202T101010Z-k3x9q2ab.json',
    task: 'm1-done-after-delete',
    phase: 'paused',
    turns: 8,
    restarts: 1,
    dollars: 0.4567,
    tokens: { input: 1000, output: 200 },
    workspace: '/w',
    locked: false,
    pending: [],
    unresolved: [],
    files: [],
    updatedAt: '2025-12-02T10:20:00.000Z',
    ...o,
  };
}

test('a run row: short label, "phase in words · turn N · $D · restarts R", and its status', () => {
  const r = runRow(info(), false);
  assert.equal(r.label, 'm1-done-after-delete…k3x9q2ab');
  assert.equal(r.description, 'waiting for you · turn 8 · $0.46 · restarts 1');
  assert.match(runRow(info({ phase: 'tools' }), true).description, /^running tools · /);
  assert.match(runRow(info({ phase: 'model' }), true).description, /^waiting for the model · /);
  assert.match(runRow(info({ phase: 'tools' }), false).description, /^stopped while running tools · /);
  assert.match(runRow(info({ phase: 'done' }), false).description, /^finished · /);
  assert.equal(r.status, 'resumable');
  assert.equal(r.contextValue, 'run-resumable');
  assert.match(r.tooltip, /Run m1-done-after-delete-20251202T101010Z-k3x9q2ab/);
});

test('status: active here beats locked; done; corrupt', () => {
  assert.equal(runRow(info({ locked: true }), true).status, 'active');
  assert.equal(runRow(info({ locked: true }), false).contextValue, 'run-locked');
  assert.equal(runRow(info({ phase: 'done' }), false).status, 'done');
  const bad = runRow(
    { runId: 'x', file: '/s/runs/x.json', locked: false, pending: [], unresolved: [], files: [], error: 'Checkpoint /s/runs/x.json is corrupt' },
    false,
  );
  assert.equal(bad.contextValue, 'run-corrupt');
  assert.equal(bad.description, 'corrupt checkpoint');
});

test('short IDs: the task and the random tail, or the ID itself', () => {
  assert.equal(shortRunId('cart-20251202T101010Z-abcdefgh', 'cart'), 'cart…abcdefgh');
  assert.equal(shortRunId('my-run', 'other'), 'my-run');
  assert.equal(shortRunId('x'.repeat(60)).length, 45);
});

test('children: questions (approvals with their own context value), files written, unresolved markers', () => {
  const withFiles = info({
    pending: [
      { kind: 'approval', callId: 'c1', tool: 'issue_file', title: 'File issue: todo N crashes' },
      { kind: 'ladder', callId: 'c2', tool: 'code_patch', title: 'Patch src/todos.js' },
    ],
    files: [{ path: 'src/todos.js', sha256: SHA }],
    unresolved: [{ callId: 'c2', tool: 'code_patch', startedAt: '2025-12-02T10:00:00Z', keyed: false }],
  });
  const rows = childRows(withFiles);
  assert.deepEqual(
    rows.map((r) => [r.kind, r.label, r.contextValue]),
    [
      ['question', 'Approve: File issue: todo N crashes', 'question-approval'],
      ['question', 'Did it already happen? Patch src/todos.js', 'question-ladder'],
      ['file', 'src/todos.js', 'file'],
      ['marker', 'code_patch may have happened', 'marker'],
    ],
  );
  assert.equal(rows[2].description, `written · ${SHA.slice(0, 12)}`);
  const marked = childRows(withFiles, new Map([[rows[2].kind === 'file' ? rows[2].path : '', 'changed' as const]]));
  assert.equal(marked[2].description, 'changed after the agent wrote it');
  const q = rows[0];
  assert.ok(q.kind === 'question' && q.runId === info().runId && q.callId === 'c1');
});

test('a run stopped on changed files: its saved question is neither listed nor counted in the badge; a question asked now is', () => {
  const info = {
    runId: 'r1',
    task: 't',
    pending: [{ kind: 'approval', callId: 'c1', tool: 'issue_file', title: 'File issue: x', askedAt: '' }],
    files: [],
    unresolved: [],
  } as unknown as RunInfo;
  assert.equal(childRows(info).filter((r) => r.kind === 'question').length, 1);
  assert.equal(childRows(info, undefined, true).filter((r) => r.kind === 'question').length, 0);
  const saved = [
    { runId: 'r1', callId: 'c1' },
    { runId: 'r2', callId: 'c2' },
  ];
  assert.equal(
    waitingCount(saved, [], () => false),
    2,
  );
  assert.equal(
    waitingCount(saved, [{ runId: 'r2', callId: 'c2' }], (id) => id === 'r1'),
    1,
  );
  assert.equal(
    waitingCount(saved, [{ runId: 'r1', callId: 'c9' }], (id) => id === 'r1'),
    2,
  );
});

test("a question asked in another window is not counted here, nor called waiting for you in the tab (issue 23's walk-through)", () => {
  const saved = [
    { runId: 'r1', callId: 'c1', elsewhere: true },
    { runId: 'r2', callId: 'c2' },
  ];
  assert.equal(
    waitingCount(saved, [], () => false),
    1,
  );
  assert.equal(panelTitle('Run: m1…abc', 1, true), 'Run: m1…abc (asked in another window)');
  assert.equal(panelTitle('Run: m1…abc', 1, false), 'Run: m1…abc (waiting for you)');
  assert.equal(panelTitle('Run: m1…abc', 0, true), 'Run: m1…abc');
});

test('the badge counts the waiting questions, and is gone at none', () => {
  assert.deepEqual(waitingBadge(1), { value: 1, tooltip: '1 question waits for you' });
  assert.deepEqual(waitingBadge(3), { value: 3, tooltip: '3 questions wait for you' });
  // An explicit zero (the editor draws no badge for it), not undefined: TreeView.badge ignores undefined
  // while its own last value is undefined, so an extension host started after one was killed could never
  // clear the badge the dead one left (found in the issue #23 walk).
  assert.deepEqual(waitingBadge(0), { value: 0, tooltip: '' });
});

test("a run picker's row says where the run stands in words, as the Runs view does (not the phase's name)", () => {
  assert.equal(runPickDescription({ phase: 'done', turns: 26, dollars: 0.71, restarts: 2 }, false), 'finished · turn 26 · $0.71 · restarts 2');
  assert.equal(
    runPickDescription({ phase: 'tools', turns: 18, dollars: 0.42, restarts: 1 }, false),
    'stopped while running tools · turn 18 · $0.42 · restarts 1',
  );
  assert.equal(
    runPickDescription({ phase: 'model', turns: 3, dollars: 0.04, restarts: 0 }, true, 'undone already · '),
    'undone already · waiting for the model · turn 3 · $0.04 · restarts 0',
  );
});
