/**
 * Wire fixtures: the SSE frames an Anthropic or OpenAI-compatible server streams, and a
 * small ModelRequest to send.
 */
import type { ModelRequest } from '../../../src/model/provider';
import { frame } from './fake-server';

export function request(over: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You triage crashes.',
    messages: [{ role: 'user', content: 'Triage the crashes in crashes/.' }],
    tools: [
      {
        name: 'read_file',
        description: 'Reads a file.',
        schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ],
    turn: 0,
    ...over,
  };
}

export type AnthropicBlock = { text: string[] } | { tool: { id: string; name: string; parts: string[] } };

export function anthropicFrames(
  blocks: AnthropicBlock[],
  usage = { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500 },
  o: { stopReason?: string } = {},
): string[] {
  const f: string[] = [];
  f.push(
    frame('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [],
        usage: {
          input_tokens: usage.input_tokens,
          output_tokens: 1,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
        },
      },
    }),
  );
  f.push(frame('ping', { type: 'ping' }));
  blocks.forEach((b, index) => {
    if ('text' in b) {
      f.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const t of b.text) f.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }));
    } else {
      f.push(
        frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.tool.id, name: b.tool.name, input: {} } }),
      );
      for (const p of b.tool.parts)
        f.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } }));
    }
    f.push(frame('content_block_stop', { type: 'content_block_stop', index }));
  });
  f.push(
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: o.stopReason ?? (blocks.some((b) => 'tool' in b) ? 'tool_use' : 'end_turn') },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  f.push(frame('message_stop', { type: 'message_stop' }));
  return f;
}

export type OpenAIPiece = { text: string } | { call: { index: number; id?: string; name?: string; args?: string } };

export function openaiFrames(
  pieces: OpenAIPiece[],
  usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } } | null = {
    prompt_tokens: 3000,
    completion_tokens: 100,
    prompt_tokens_details: { cached_tokens: 1000 },
  },
  o: { done?: boolean; finish?: string } = {},
): string[] {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4.1-mini-2025-04-14' };
  const f: string[] = [frame(undefined, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })];
  for (const p of pieces) {
    const delta =
      'text' in p
        ? { content: p.text }
        : {
            tool_calls: [
              {
                index: p.call.index,
                ...(p.call.id ? { id: p.call.id, type: 'function' } : {}),
                function: { ...(p.call.name ? { name: p.call.name } : {}), arguments: p.call.args ?? '' },
              },
            ],
          };
    f.push(frame(undefined, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }));
  }
  const finish = o.finish ?? (pieces.some((p) => 'call' in p) ? 'tool_calls' : 'stop');
  f.push(frame(undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }));
  if (usage) f.push(frame(undefined, { ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
  if (o.done ?? true) f.push(frame(undefined, '[DONE]'));
  return f;
}
