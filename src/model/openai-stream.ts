/**
 * Reading a chat-completions reply: the streamed chunks (text deltas, tool_calls deltas
 * keyed by index whose `arguments` fragments are concatenated as they came, a usage
 * chunk when stream_options.include_usage is honoured, then [DONE]), or the whole JSON
 * completion when the server did not stream.
 *
 * Usage: prompt_tokens counts cached tokens too, so inputTokens = prompt_tokens -
 * cached_tokens and cacheReadTokens = cached_tokens (each priced at its own rate). A
 * server that sends no usage (some local ones) leaves usage unset: the reply is then
 * counted as 0 tokens and $0, and reported as unpriced (see reply.ts).
 */
import type { ToolCall } from '../durable/state';
import { HttpStatusError, TransientError, type SseEvent } from './http';
import { rawArgs, type ParsedReply, type RawUsage } from './reply';

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface WireChunk {
  id?: string;
  model?: string;
  error?: { message?: string; code?: unknown };
  choices?: { index?: number; delta?: { content?: string | null; tool_calls?: WireToolCall[] }; finish_reason?: string | null }[];
  usage?: WireUsage | null;
}

export class OpenAIStream {
  private text = '';
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();
  private usage?: WireUsage;
  private model?: string;
  private id?: string;
  /** [DONE] arrived. */
  done = false;
  /** A finish_reason arrived (servers that never send [DONE] are complete at a clean end after it). */
  finished = false;

  /** `fallbackId(i)`: an ID for a call the server sent without one (unique within the run). */
  constructor(private readonly fallbackId: (index: number) => string) {}

  onEvent(ev: SseEvent): void {
    if (ev.data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    let j: WireChunk;
    try {
      j = JSON.parse(ev.data) as WireChunk;
    } catch {
      throw new TransientError('the reply stream sent a malformed chunk');
    }
    if (j.error) throw new HttpStatusError(typeof j.error.code === 'number' ? j.error.code : 500, j.error.message ?? 'error chunk in the stream');
    if (j.id) this.id = j.id;
    if (j.model) this.model = j.model;
    if (j.usage) this.usage = j.usage;
    const choice = j.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    if (choice.delta?.content) this.text += choice.delta.content;
    (choice.delta?.tool_calls ?? []).forEach((tc, pos) => this.addCallDelta(tc, pos));
    if (choice.finish_reason) this.finished = true;
  }

  private addCallDelta(tc: WireToolCall, pos: number): void {
    let index = tc.index;
    if (index === undefined) {
      // Servers that omit the index send each call whole, or continue the last one without an id.
      const byId = tc.id ? [...this.calls.entries()].find(([, c]) => c.id === tc.id)?.[0] : undefined;
      index = byId ?? (tc.id || this.calls.size === 0 ? this.calls.size + pos : this.calls.size - 1);
    }
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (tc.id) call.id = tc.id;
    if (tc.function?.name && !call.name) call.name = tc.function.name;
    if (tc.function?.arguments) call.args += tc.function.arguments;
  }

  result(): ParsedReply {
    const calls: ToolCall[] = [...this.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({ id: c.id || this.fallbackId(i), name: c.name, args: rawArgs(c.args) }));
    const r: ParsedReply = { text: this.text, calls };
    if (this.usage) r.usage = rawUsage(this.usage);
    if (this.model) r.model = this.model;
    if (this.id) r.replyId = this.id;
    return r;
  }
}

function rawUsage(u: WireUsage): RawUsage {
  const prompt = u.prompt_tokens ?? 0;
  const cached = u.prompt_tokens_details?.cached_tokens;
  const r: RawUsage = { inputTokens: prompt - (cached ?? 0), outputTokens: u.completion_tokens ?? 0 };
  if (typeof cached === 'number') r.cacheReadTokens = cached;
  return r;
}

/** A non-streamed completion (one JSON document). */
export function parseOpenAICompletion(
  j: {
    id?: string;
    model?: string;
    choices?: { message?: { content?: string | null; tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] } }[];
    usage?: WireUsage | null;
  },
  fallbackId: (index: number) => string,
): ParsedReply {
  const msg = j.choices?.[0]?.message;
  const calls = (msg?.tool_calls ?? []).map((c, i) => ({ id: c.id || fallbackId(i), name: c.function?.name ?? '', args: rawArgs(c.function?.arguments ?? '') }));
  const r: ParsedReply = { text: msg?.content ?? '', calls };
  if (j.usage) r.usage = rawUsage(j.usage);
  if (j.model) r.model = j.model;
  if (j.id) r.replyId = j.id;
  return r;
}
