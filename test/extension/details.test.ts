import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalDetails, callTitle, ladderDetails, prettyArgs } from '../../src/extension/logic/details';

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
