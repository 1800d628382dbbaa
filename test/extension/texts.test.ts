import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHANGED_BUTTONS,
  approvalMessage,
  openRunLink,
  decidedMessage,
  doneMessage,
  formatDollars,
  ladderMessage,
  openElsewhereMessage,
  pausedMessage,
  progressText,
  progressTitle,
  resumeOfferMessage,
  statusBarText,
  workspaceChangedMessage,
} from '../../src/extension/logic/texts';

// The shared contract's texts, as the real-editor tests match them.
const ID = '(\\S+?)';
const APPROVAL = new RegExp(`^Durable Triage: approve ${ID}\\? (.+)$`);
const DONE = new RegExp(`^Durable Triage: ${ID} finished: (\\d+)/(\\d+) checks passed; issues (#\\d+(, #\\d+)*) \\(run (\\S+)\\)\\.$`);
const RESUME_OFFER = new RegExp(`^Durable Triage: run ${ID} \\((.+?)\\) was interrupted at turn (\\d+)\\. Resume it\\?$`);
const OPEN_ELSEWHERE = new RegExp(`^Durable Triage: run ${ID} is open in another window; it will not be run here\\.$`);
const WORKSPACE_CHANGED = /^Durable Triage: files the agent wrote have changed: (.+?)\. /;

test('the approval text names the tool and the title', () => {
  const m = APPROVAL.exec(approvalMessage('issue_file', 'File issue: done after delete throws'));
  assert.ok(m);
  assert.equal(m[1], 'issue_file');
  assert.equal(m[2], 'File issue: done after delete throws');
});

test('the done text says first what matters: the task, the checks, the issues; the run last, short', () => {
  const text = doneMessage('m1', 'm1-20251202T101010Z-abcd1234', [{ passed: true }, { passed: false }, { passed: true }], [{ number: 1 }, { number: 2 }]);
  assert.equal(text, 'Durable Triage: m1 finished: 2/3 checks passed; issues #1, #2 (run m1…abcd1234).');
  const m = DONE.exec(text);
  assert.ok(m);
  assert.deepEqual([m[1], m[2], m[3], m[6]], ['m1', '2', '3', 'm1…abcd1234']);
});

test('the done text leaves out checks for a task without any, and says when no issue was filed', () => {
  assert.equal(doneMessage('t', 'r1', undefined, [{ number: 7 }]), 'Durable Triage: t finished: issues #7 (run r1).');
  assert.equal(doneMessage('t', 'r1', [], []), 'Durable Triage: t finished: 0/0 checks passed; no issues filed (run r1).');
});

test('a stale notification says how its question was decided; a closed one says it is asked again', () => {
  assert.equal(
    decidedMessage('File issue: x', { answer: 'approve', by: 'you, in the Run panel' }),
    'Durable Triage: already approved by you, in the Run panel; this notification no longer acts: File issue: x.',
  );
  assert.equal(
    decidedMessage('Patch a.js', { answer: { answer: 'rerun' } }),
    'Durable Triage: already answered (run it again); this notification no longer acts: Patch a.js.',
  );
  assert.equal(
    decidedMessage('File issue: x', { answer: 'later', by: 'the run stopped' }),
    'Durable Triage: closed when its run stopped; asked again when the run resumes: File issue: x.',
  );
});

test('the changed-files text says what the buttons do, and offers no way on a recorded run cannot take', () => {
  assert.match(workspaceChangedMessage(['a.js']), /Keep My Edits goes on with yours/);
  assert.doesNotMatch(workspaceChangedMessage(['a.js'], false), /Keep My Edits/);
  assert.ok(
    Object.values(CHANGED_BUTTONS).every((b) => b.length <= 14),
    'short enough for four in one notification',
  );
});

test('resume offer, open elsewhere and workspace changed match the contract', () => {
  const offer = RESUME_OFFER.exec(resumeOfferMessage('run-1', 'm1-done-after-delete', 8));
  assert.deepEqual(offer?.slice(1), ['run-1', 'm1-done-after-delete', '8']);
  assert.equal(OPEN_ELSEWHERE.exec(openElsewhereMessage('run-2'))?.[1], 'run-2');
  assert.equal(WORKSPACE_CHANGED.exec(workspaceChangedMessage(['src/a.js', 'test/b.test.js']))?.[1], 'src/a.js, test/b.test.js');
});

test('the ladder question names the tool and what it acted on', () => {
  assert.equal(ladderMessage('code_patch', 'src/todos.js'), 'Durable Triage: Did code_patch src/todos.js already happen?');
  assert.equal(ladderMessage('run_tests', ''), 'Durable Triage: Did run_tests already happen?');
});

test('progress, status bar and dollars', () => {
  assert.equal(progressTitle('m1-done-after-delete'), 'Durable Triage: m1-done-after-delete');
  assert.equal(progressText(3, 0.1234), 'turn 3 · $0.12');
  assert.equal(progressText(3, 0.1234, 'waiting for the model'), 'waiting for the model · turn 3 · $0.12');
  assert.equal(openRunLink('r-1'), '[Open Run](command:durableTriage.openRun?%5B%22r-1%22%5D)');
  assert.equal(statusBarText(12, 1.5), '$(pulse) Triage: turn 12 · $1.50');
  assert.equal(formatDollars(0), '$0.00');
  assert.equal(formatDollars(0.00123), '$0.0012');
  assert.equal(formatDollars(Number.NaN), '$0.00');
});

test('the paused text says what the run waits for', () => {
  const t = pausedMessage('r9', [
    { kind: 'approval', tool: 'issue_file' },
    { kind: 'ladder', tool: 'code_patch' },
  ]);
  assert.match(t, /^Durable Triage: run r9 is paused, waiting for approval of issue_file, your answer about code_patch\./);
});
