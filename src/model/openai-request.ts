/**
 * Our request in the OpenAI chat-completions shape (OpenAI, and compatible local servers
 * such as Ollama or vLLM).
 *
 * - system prompt → a system message; the summary (if any) → the first user text;
 * - an assistant's calls → tool_calls with `arguments` = the raw args text, unchanged
 *   (the API takes a string, so even invalid JSON is sent exactly as the model wrote it);
 * - each tool result → a role "tool" message with its tool_call_id. The API has no error
 *   flag, so an error result's content is prefixed with "Error: " unless it already says so.
 * - the tools: those for every model and OpenAI's own (apply_patch), all as function tools:
 *   Chat Completions has no built-in apply_patch type (only the Responses API has), so
 *   apply_patch goes as a function whose one `input` argument is the V4A patch text.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParams,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Message } from '../core/conversation';
import type { ModelRequest } from './provider';
import { withSummary } from './context';
import { offeredTo } from '../core/tool-schema';

export type OpenAIMessage = ChatCompletionMessageParam;

/** The request body: the SDK's params, with only function tools. */
export type OpenAIBody = ChatCompletionCreateParams & { tools?: ChatCompletionFunctionTool[] };

export function toOpenAIMessages(system: string, messages: Message[]): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  if (system !== '') out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant') {
      const calls = m.calls ?? [];
      if (!m.text && calls.length === 0) continue;
      const a: ChatCompletionAssistantMessageParam = { role: 'assistant', content: m.text ? m.text : null };
      if (calls.length > 0) a.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
      out.push(a);
    } else {
      for (const r of m.results) {
        const content = r.isError && !/^error\b/i.test(r.content) ? `Error: ${r.content}` : r.content;
        out.push({ role: 'tool', tool_call_id: r.callId, content });
      }
    }
  }
  return out;
}

export function openaiBody(
  req: ModelRequest,
  o: { model: string; maxTokens?: number; maxTokensField: 'max_tokens' | 'max_completion_tokens'; stream: boolean },
): OpenAIBody {
  const body: OpenAIBody = { model: o.model, messages: toOpenAIMessages(req.system, withSummary(req)), stream: o.stream };
  if (o.stream) body.stream_options = { include_usage: true };
  const tools = offeredTo(req.tools, 'openai');
  if (tools.length > 0)
    body.tools = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: { ...t.schema } } }));
  if (o.maxTokens !== undefined) body[o.maxTokensField] = o.maxTokens;
  return body;
}
