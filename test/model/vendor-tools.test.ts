/**
 * The tools each vendor's models are offered, as the stand-in servers receive them: Anthropic's
 * requests carry the built-in text editor type (text_editor_20250728) for Claude 4 and later, and
 * no apply_patch; OpenAI's carry apply_patch as a function with one `input` string, and no text
 * editor; both carry str_replace and the history tools. The reply's tool_use of the text editor
 * comes back as a call of our tool of that name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnthropicProvider } from '../../src/model/anthropic';
import { OpenAIProvider } from '../../src/model/openai';
import { builtInTextEditor } from '../../src/model/anthropic-request';
import { toolSpec } from '../../src/agent/tool-args';
import { toolSet, type Tool } from '../../src/agent/tool';
import { triageTools, TOOL_NAMES } from '../../src/tools';
import { TrackerClient } from '../../src/tracker/client';
import { startServer, recordingSleep } from './support/fake-server';
import { anthropicFrames, openaiFrames, request } from './support/wire';

const tools = triageTools({ tracker: new TrackerClient('http://127.0.0.1:9'), keys: false });
const specs = tools.map((t) => toolSpec(t as Tool));
const signal = (): AbortSignal => new AbortController().signal;
const SHARED = TOOL_NAMES.filter((n) => n !== 'str_replace_based_edit_tool' && n !== 'apply_patch');

test('Anthropic: the text editor goes as the built-in type to Claude 4, with the shared tools and without apply_patch; its tool_use comes back to our tool', async () => {
  const frames = anthropicFrames([
    { tool: { id: 'toolu_e', name: 'str_replace_based_edit_tool', parts: ['{"command":"view","path":"a.js","view_range":[1,5]}'] } },
  ]);
  const s = await startServer([{ kind: 'sse', frames }]);
  try {
    const p = new AnthropicProvider({ apiKey: 'sk-test', baseUrl: s.url, model: 'claude-sonnet-4-5', retry: { sleep: recordingSleep().sleep } });
    const reply = await p.complete(request({ tools: specs }), signal());
    const sent = s.requests[0].body.tools as Record<string, unknown>[];
    assert.deepEqual(
      sent.find((t) => t.name === 'str_replace_based_edit_tool'),
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
    );
    assert.deepEqual(
      sent.map((t) => t.name),
      [...SHARED.slice(0, SHARED.indexOf('str_replace') + 1), 'str_replace_based_edit_tool', ...SHARED.slice(SHARED.indexOf('str_replace') + 1)],
    );
    assert.ok(sent.find((t) => t.name === 'str_replace')!.input_schema, 'str_replace is a JSON-schema tool');
    assert.deepEqual(reply.calls, [{ id: 'toolu_e', name: 'str_replace_based_edit_tool', args: '{"command":"view","path":"a.js","view_range":[1,5]}' }]);
    assert.ok(toolSet(tools).get(reply.calls[0].name), 'the call runs our text editor');
  } finally {
    await s.close();
  }
});

test('Anthropic: an older model gets the text editor as a JSON-schema tool of the same name', async () => {
  const s = await startServer([{ kind: 'sse', frames: anthropicFrames([{ text: ['ok'] }]) }]);
  try {
    const p = new AnthropicProvider({ apiKey: 'sk-test', baseUrl: s.url, model: 'claude-3-5-haiku-latest', retry: { sleep: recordingSleep().sleep } });
    await p.complete(request({ tools: specs }), signal());
    const editor = (s.requests[0].body.tools as Record<string, unknown>[]).find((t) => t.name === 'str_replace_based_edit_tool')!;
    assert.equal(editor.type, undefined);
    assert.equal((editor.input_schema as { type: string }).type, 'object');
  } finally {
    await s.close();
  }
  assert.deepEqual(
    ['claude-opus-4-20250514', 'claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'claude-opus-5', 'claude-3-7-sonnet-latest', 'claude-3-5-haiku', 'llama3'].map(
      builtInTextEditor,
    ),
    [true, true, true, true, false, false, false],
  );
});

test('OpenAI (Chat Completions): apply_patch as a function with one input string, the shared tools, no text editor', async () => {
  const s = await startServer([{ kind: 'sse', frames: openaiFrames([{ text: 'ok' }]) }]);
  try {
    const p = new OpenAIProvider({ apiKey: 'sk-test', baseUrl: s.url, model: 'gpt-5', retry: { sleep: recordingSleep().sleep } });
    await p.complete(request({ tools: specs }), signal());
    const sent = s.requests[0].body.tools as {
      type: string;
      function: { name: string; parameters: { properties: Record<string, unknown>; required: string[] } };
    }[];
    assert.deepEqual(
      sent.map((t) => t.function.name),
      [...SHARED.slice(0, SHARED.indexOf('str_replace') + 1), 'apply_patch', ...SHARED.slice(SHARED.indexOf('str_replace') + 1)],
    );
    assert.ok(sent.every((t) => t.type === 'function'));
    const patch = sent.find((t) => t.function.name === 'apply_patch')!.function.parameters;
    assert.deepEqual(Object.keys(patch.properties), ['input']);
    assert.deepEqual(patch.required, ['input']);
  } finally {
    await s.close();
  }
});
