import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callInput, lmTurns } from '../../src/extension/logic/lm-request';

test('the system prompt opens the first user message (the API has no system role)', () => {
  const turns = lmTurns({ system: 'You triage.', messages: [{ role: 'user', content: 'Go.' }] });
  assert.deepEqual(turns, [
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'You triage.' },
        { type: 'text', text: 'Go.' },
      ],
    },
  ]);
});

test('calls become call parts with parsed input; results open the next user message; same roles merge', () => {
  const turns = lmTurns({
    system: '',
    messages: [
      { role: 'user', content: 'Go.' },
      {
        role: 'assistant',
        text: 'Looking.',
        calls: [
          { id: 'c1', name: 'read_file', args: '{"path":"a.js"}' },
          { id: 'c2', name: 'x', args: '{bad' },
        ],
      },
      {
        role: 'tool',
        results: [
          { callId: 'c1', content: 'text' },
          { callId: 'c2', content: 'Invalid arguments', isError: true },
        ],
      },
      { role: 'user', content: 'Note: files changed.' },
    ],
  });
  assert.deepEqual(turns, [
    { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
    {
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Looking.' },
        { type: 'call', callId: 'c1', name: 'read_file', input: { path: 'a.js' } },
        { type: 'call', callId: 'c2', name: 'x', input: {} },
      ],
    },
    {
      role: 'user',
      parts: [
        { type: 'result', callId: 'c1', text: 'text' },
        { type: 'result', callId: 'c2', text: 'ERROR: Invalid arguments' },
        { type: 'text', text: 'Note: files changed.' },
      ],
    },
  ]);
});

test('the summary replaces the older messages; a conversation never starts with the assistant', () => {
  const turns = lmTurns({
    system: '',
    summary: { text: '[Summary] earlier', covers: 2 },
    messages: [{ role: 'assistant', text: 'Next.' }],
  });
  assert.equal(turns[0].role, 'user');
  assert.deepEqual(turns[0].parts, [{ type: 'text', text: '[Summary] earlier' }]);
  assert.equal(turns[1].role, 'assistant');
  assert.deepEqual(lmTurns({ system: '', messages: [{ role: 'assistant', text: 'hi' }] })[0], { role: 'user', parts: [{ type: 'text', text: 'Continue.' }] });
});

test('empty results are sent as "(no output)"; only JSON objects are inputs', () => {
  const t = lmTurns({
    system: '',
    messages: [
      { role: 'user', content: 'a' },
      { role: 'tool', results: [{ callId: 'c', content: '' }] },
    ],
  });
  assert.deepEqual(t[0].parts[0], { type: 'result', callId: 'c', text: '(no output)' });
  assert.deepEqual(callInput('[1,2]'), {});
  assert.deepEqual(callInput('"s"'), {});
  assert.deepEqual(callInput('{"a":1}'), { a: 1 });
});
