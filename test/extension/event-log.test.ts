import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SavePoint } from '../../src/store/save-points';
import { eventLine, progressOf } from '../../src/extension/logic/event-log';

const call = { id: 'toolu_1', name: 'code_patch', args: '{"path":"src/a.js",\n "patch":"' + 'x'.repeat(400) + '"}' };
const usage = { inputTokens: 1200, outputTokens: 80, dollars: 0.0048 };

test('every event is one line naming the run, saves included; tool errors warn', () => {
  assert.deepEqual(eventLine('r1', { type: 'saved', point: SavePoint.ReplyArrived, phase: 'tools' }), {
    level: 'info',
    text: '[r1] saved at reply-arrived (phase tools)',
  });
  assert.equal(eventLine('r1', { type: 'model-call', turn: 0 }).text, '[r1] turn 1: asking the model');
  const reply = eventLine('r1', { type: 'reply', turn: 2, calls: [call], usage, total: { ...usage, dollars: 0.25 } }).text;
  assert.equal(reply, '[r1] turn 3: code_patch (toolu_1); 1200 in / 80 out, $0.0048 (run total $0.25)');
  const start = eventLine('r1', { type: 'tool-start', call }).text;
  assert.ok(!start.includes('\n') && start.length < 200, start);
  assert.equal(eventLine('r1', { type: 'tool-end', call, result: { callId: 'toolu_1', content: 'no match', isError: true } }).level, 'warn');
  assert.equal(eventLine('r1', { type: 'ladder', call, step: 'lookup', outcome: 'done' }).text, '[r1] ladder for code_patch (toolu_1): lookup -> done');
  assert.equal(eventLine('r1', { type: 'approval', call, answer: 'approve' }).text, '[r1] code_patch (toolu_1): approve');
  assert.match(eventLine('r1', { type: 'workspace-verified', files: 2, after: 'restart' }).text, /2 file\(s\)/);
  assert.equal(eventLine('r1', { type: 'reply', turn: 5, calls: [], text: 'done', usage, total: usage }).text.includes('final answer'), true);
});

test('progress moves on model calls and replies only', () => {
  assert.deepEqual(progressOf({ type: 'model-call', turn: 4 }), { turn: 5 });
  assert.deepEqual(progressOf({ type: 'reply', turn: 4, calls: [], usage, total: { ...usage, dollars: 1 } }), { turn: 5, dollars: 1 });
  assert.equal(progressOf({ type: 'tool-start', call }), undefined);
});
