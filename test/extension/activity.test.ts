// What the status bar, the progress notification and the Run panel's header say a run is doing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activityOf } from '../../src/extension/logic/activity';
import type { LoopEvent } from '../../src/agent/loop';

const start = (name: string, args: unknown): LoopEvent => ({ type: 'tool-start', call: { id: 'c1', name, args: JSON.stringify(args) } }) as LoopEvent;

test('a running call is named in words, as its view titles it, never by the tool’s internal name', () => {
  assert.equal(activityOf(start('run_tests', {})), 'Run the tests');
  assert.equal(activityOf(start('code_patch', { path: 'src/todos.js', patch: 'p' })), 'Patch src/todos.js');
  assert.equal(activityOf(start('issue_file', { title: 'Crash in parse', body: 'b', cause: 'c' })), 'File issue: Crash in parse');
});

test('a long title is cut to one short line', () => {
  const a = activityOf(start('issue_file', { title: `A very long title\nwith a line break ${'x'.repeat(100)}`, body: 'b', cause: 'c' }))!;
  assert.equal(a.length, 60);
  assert.ok(a.endsWith('…') && !a.includes('\n'), a);
});
