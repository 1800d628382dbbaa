/**
 * Our request in the Anthropic Messages API's shape.
 *
 * - The summary (if any) is the first user text; consecutive turns of one role are
 *   merged (the API wants user and assistant to alternate), tool_result blocks first.
 * - An assistant's calls become tool_use blocks whose `input` is the parsed args. The API
 *   only accepts an object there, so args that are not a JSON object (the model wrote
 *   invalid JSON) are sent as `{}`: the conversation stays sendable, and the call's error
 *   result, which the loop wrote ("Invalid arguments for ..."), tells the model what went
 *   wrong. The run state keeps the raw text unchanged.
 * - Tool results become tool_result blocks with is_error.
 * - The tools: those for every model and Anthropic's own. The text editor
 *   (str_replace_based_edit_tool) goes as the built-in tool type text_editor_20250728 to a
 *   model trained on it (Claude 4 and later: builtInTextEditor), else as a JSON-schema tool of
 *   the same name and arguments; either way the model's tool_use comes back under that name.
 * - With prompt caching on, the system prompt (which caches the tools too) and the last
 *   block of the conversation carry cache_control breakpoints.
 */
import type {
  MessageCreateParams,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolTextEditor20250728,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '../core/conversation';
import type { ModelRequest } from './provider';
import { withSummary } from './context';
import { offeredTo, TEXT_EDITOR_NAME, type ToolSpec } from '../core/tool-schema';

/** The blocks our conversations use (the SDK's types). */
export type AnthropicBlock = TextBlockParam | ToolUseBlockParam | ToolResultBlockParam;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** The request body: the SDK's params, with our narrower messages and system blocks. */
export type AnthropicBody = MessageCreateParams & { messages: AnthropicMessage[]; system?: TextBlockParam[]; tools?: AnthropicTool[] };

/** A tool as sent: a JSON-schema tool, or the built-in text editor. */
export type AnthropicTool = Tool | ToolTextEditor20250728;

/** The parsed args when they are a JSON object, else `{}` (see the file comment). */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // invalid JSON: sent as {}
  }
  return {};
}

function blocksOf(m: Message): { role: 'user' | 'assistant'; blocks: AnthropicBlock[] } {
  switch (m.role) {
    case 'user':
      return { role: 'user', blocks: m.content === '' ? [] : [{ type: 'text', text: m.content }] };
    case 'assistant': {
      const blocks: AnthropicBlock[] = [];
      if (m.text) blocks.push({ type: 'text', text: m.text });
      for (const c of m.calls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.args) });
      return { role: 'assistant', blocks };
    }
    case 'tool':
      return {
        role: 'user',
        blocks: m.results.map((r) => ({
          type: 'tool_result',
          tool_use_id: r.callId,
          content: r.content === '' ? '(no output)' : r.content,
          ...(r.isError ? { is_error: true } : {}),
        })),
      };
  }
}

export function toAnthropicMessages(messages: Message[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    const { role, blocks } = blocksOf(m);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  for (const m of out) {
    // tool_result blocks must open a user turn; keep the order within each kind.
    if (m.role === 'user') m.content = [...m.content.filter((b) => b.type === 'tool_result'), ...m.content.filter((b) => b.type !== 'tool_result')];
  }
  if (out[0]?.role !== 'user') out.unshift({ role: 'user', content: [{ type: 'text', text: 'Continue.' }] });
  return out;
}

export function anthropicBody(req: ModelRequest, o: { model: string; maxTokens: number; promptCache: boolean; stream: boolean }): AnthropicBody {
  const messages = toAnthropicMessages(withSummary(req));
  const body: AnthropicBody = { model: o.model, max_tokens: o.maxTokens, messages, stream: o.stream };
  if (req.system !== '') body.system = [{ type: 'text', text: req.system, ...(o.promptCache ? { cache_control: { type: 'ephemeral' as const } } : {}) }];
  const tools = offeredTo(req.tools, 'anthropic');
  if (tools.length > 0) body.tools = tools.map((t) => anthropicTool(t, o.model));
  if (o.promptCache) {
    const lastMsg = messages[messages.length - 1];
    const lastBlock = lastMsg?.content[lastMsg.content.length - 1];
    if (lastBlock) lastBlock.cache_control = { type: 'ephemeral' };
  }
  return body;
}

/** A spec as Anthropic's API takes it (see the file comment). */
function anthropicTool(t: ToolSpec, model: string): AnthropicTool {
  if (t.name === TEXT_EDITOR_NAME && builtInTextEditor(model)) return { type: 'text_editor_20250728', name: TEXT_EDITOR_NAME };
  return { name: t.name, description: t.description, input_schema: { ...t.schema } };
}

/**
 * Whether the model knows the built-in text editor text_editor_20250728: Claude 4 and later
 * (claude-opus-4..., claude-sonnet-4-5, claude-haiku-4-5, a later major). Older models
 * (claude-3-7-sonnet knows only text_editor_20250124 under another name) and names we cannot
 * read get the JSON-schema tool.
 */
export function builtInTextEditor(model: string): boolean {
  const m = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:[-@.]|$)/.exec(model);
  return m !== null && Number(m[1]) >= 4;
}
