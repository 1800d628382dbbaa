import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalDetails, callTitle, ladderDetails, prettyArgs, storedApprovalDetails } from '../../src/extension/logic/details';

const base = { runId: 'r1', callId: 'toolu_01', tool: 'issue_file', args: '{"title":"Crash","body":"b"}', title: 'File issue: Crash', detail: 'body text\n\ncause: x' };

test('a patch is shown as a diff of the file', () => {
  const v = approvalDetails({ ...base, tool: 'code_patch', diff: { path: 'src/a.js', before: 'old', after: 'new' } });
  assert.deepEqual(v, { kind: 'diff', path: 'src/a.js', before: 'old', after: 'new', title: 'code_patch: src/a.js (proposed change)' });
});

test("an issue is shown as a markdown document with its title, body and the model's arguments", () => {
  const v = approvalDetails(base);
  assert.equal(v.kind, 'document');
  if (v.kind !== 'document') return;
  assert.equal(v.name, 'File_issue_Crash.md', 'named after what it shows');
  assert.match(v.content, /^# File issue: Crash\n\nbody text\n\ncause: x\n/);
  assert.ok(v.content.includes('"title": "Crash"'), v.content);
});

test('arguments that are not JSON are shown as the model wrote them, and cannot break out of the code fence', () => {
  assert.equal(prettyArgs('{"a":'), '{"a":');
  const v = approvalDetails({ ...base, args: 'x ``` y' });
  assert.ok(v.kind === 'document' && v.content.includes('````json\nx ``` y\n````'));
});

test('the ladder details say why a person is asked', () => {
  const v = ladderDetails({ runId: 'r1', callId: 'c/9', tool: 'code_patch', args: '{"path":"src/a.js"}', reason: 'the lookup could not tell', startedAt: 'T' });
  assert.ok(v.kind === 'document');
  if (v.kind !== 'document') return;
  assert.equal(v.name, 'Did code_patch_src_a.js happen.md');
  assert.match(v.content, /the lookup could not tell/);
});

test('callTitle: the issue title, else the path, else nothing', () => {
  assert.equal(callTitle('{"title":" Crash on undo ","path":"x"}'), '"Crash on undo"');
  assert.equal(callTitle('{"path":"src/todos.js"}'), 'src/todos.js');
  assert.equal(callTitle('{"n":1}'), '');
  assert.equal(callTitle('not json'), '');
  assert.equal(callTitle('[1]'), '');
  assert.equal(callTitle(JSON.stringify({ title: 'x'.repeat(200) })).length, 82);
});

test("a shared store's approval (no live call to ask) is shown from its saved question: the issue's title, cause and body, then the model's arguments", () => {
  const args = JSON.stringify({ title: '"done N" crashes', cause: 'done-after-delete', body: 'Marking an item done\n\n```\nTypeError: x\n```' });
  const v = storedApprovalDetails({ runId: 'r9', callId: 'toolu_9', tool: 'issue_file', args });
  assert.equal(v.kind, 'document');
  if (v.kind !== 'document') return;
  assert.equal(v.name, 'File_issue_done_N_crashes.md');
  assert.match(v.content, /^# File issue: "done N" crashes\n\n\*\*Title:\*\* "done N" crashes\n\n\*\*Cause:\*\* `done-after-delete`\n\nMarking an item done\n/);
  assert.ok(v.content.includes('paused in the shared store for a worker'), v.content);
  // The arguments' fence is longer than any fence inside them.
  assert.ok(v.content.includes('````json\n{\n  "title"'), v.content);
});

test("a shared store's patch approval shows its diff; arguments that are not JSON are shown as written", () => {
  const v = storedApprovalDetails({ runId: 'r9', callId: 'c2', tool: 'code_patch', args: JSON.stringify({ path: 'src/a.js', patch: '@@ -1 +1 @@\n-old\n+new' }) });
  assert.ok(v.kind === 'document' && v.content.includes('`src/a.js`:\n\n```diff\n@@ -1 +1 @@\n-old\n+new\n```'), JSON.stringify(v));
  const bad = storedApprovalDetails({ runId: 'r9', callId: 'c3', tool: 'issue_file', args: '{"title": "x", "body":' });
  assert.ok(bad.kind === 'document' && bad.content.startsWith('# issue_file (arguments are not valid JSON)') && bad.content.includes('{"title": "x", "body":'), JSON.stringify(bad));
});
