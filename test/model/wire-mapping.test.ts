import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicBody, toAnthropicMessages, toolInput } from '../../src/model/anthropic-request';
import { openaiBody, toOpenAIMessages } from '../../src/model/openai-request';
import type { Message } from '../../src/core/conversation';
import { request } from './support/wire';

const convo: Message[] = [
  { role: 'user', content: 'task' },
  {
    role: 'assistant',
    text: 'Two reads.',
    calls: [
      { id: 'a', name: 'read_file', args: '{"path":"x"}' },
      { id: 'b', name: 'read_file', args: '[1,2]' },
    ],
  },
  {
    role: 'tool',
    results: [
      { callId: 'a', content: 'X' },
      { callId: 'b', content: '', isError: true },
    ],
  },
  { role: 'user', content: 'Note: x changed.' },
  { role: 'assistant', text: 'Done.' },
];

test('Anthropic: calls → tool_use (non-object args → {}), results → tool_result first in a merged user turn', () => {
  assert.deepEqual(toAnthropicMessages(convo), [
    { role: 'user', content: [{ type: 'text', text: 'task' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Two reads.' },
        { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'x' } },
        { type: 'tool_use', id: 'b', name: 'read_file', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'X' },
        { type: 'tool_result', tool_use_id: 'b', content: '(no output)', is_error: true },
        { type: 'text', text: 'Note: x changed.' },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  ]);
  assert.deepEqual(toolInput('{"a":1}'), { a: 1 });
  assert.deepEqual(toolInput('{"a":'), {});
  assert.deepEqual(toolInput('null'), {});
});

test('Anthropic: a summary leads, a conversation never opens with the assistant, cache breakpoints on system and the last block', () => {
  const body = anthropicBody(request({ messages: convo.slice(4), summary: { text: 'SUMMARY', covers: 4 } }), {
    model: 'm',
    maxTokens: 100,
    promptCache: true,
    stream: true,
  });
  assert.deepEqual(body.messages[0], { role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] });
  assert.deepEqual(body.system, [{ type: 'text', text: 'You triage crashes.', cache_control: { type: 'ephemeral' } }]);
  assert.deepEqual(body.messages[1].content.at(-1), { type: 'text', text: 'Done.', cache_control: { type: 'ephemeral' } });
  const plain = anthropicBody(request({ messages: [{ role: 'assistant', text: 'hi' }], tools: [] }), {
    model: 'm',
    maxTokens: 100,
    promptCache: false,
    stream: false,
  });
  assert.equal(plain.messages[0].role, 'user');
  assert.equal(plain.tools, undefined);
  assert.equal(JSON.stringify(plain).includes('cache_control'), false);
});

test('OpenAI: system first, calls keep their raw argument text, one tool message per result, errors marked', () => {
  assert.deepEqual(toOpenAIMessages('sys', convo), [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
    {
      role: 'assistant',
      content: 'Two reads.',
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
        { id: 'b', type: 'function', function: { name: 'read_file', arguments: '[1,2]' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: 'X' },
    { role: 'tool', tool_call_id: 'b', content: 'Error: ' },
    { role: 'user', content: 'Note: x changed.' },
    { role: 'assistant', content: 'Done.' },
  ]);
});

test('OpenAI: the max tokens field follows the server, the summary leads', () => {
  const hosted = openaiBody(request({ summary: { text: 'S', covers: 2 } }), {
    model: 'm',
    maxTokens: 50,
    maxTokensField: 'max_completion_tokens',
    stream: true,
  });
  assert.equal(hosted.max_completion_tokens, 50);
  assert.equal(hosted.max_tokens, undefined);
  assert.deepEqual(hosted.messages[1], { role: 'user', content: 'S\n\nTriage the crashes in crashes/.' });
  const local = openaiBody(request(), { model: 'm', maxTokens: 50, maxTokensField: 'max_tokens', stream: false });
  assert.equal(local.max_tokens, 50);
  assert.equal(local.stream_options, undefined);
});
