/**
 * Reading a chat-completions reply: the streamed chunks as the SDK parsed them (text
 * deltas, tool_calls deltas keyed by index whose `arguments` fragments are concatenated
 * as they came, a usage chunk when stream_options.include_usage is honoured), or the
 * whole completion when the server did not stream. The SDK never parses the arguments:
 * their raw text, invalid JSON included, is the call's args.
 *
 * The finish_reason is kept as the stop reason; `length` means the reply was cut by the
 * token limit.
 *
 * Usage: prompt_tokens counts cached tokens too, so inputTokens = prompt_tokens -
 * cached_tokens and cacheReadTokens = cached_tokens (each priced at its own rate). A
 * server that sends no usage (some local ones) leaves usage unset: the reply is then
 * counted as 0 tokens and $0, and reported as unpriced (see reply.ts).
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from '../core/conversation';
import { HttpStatusError } from './attempt';
import { rawArgs, parsedReply, type ParsedReply, type RawUsage } from './reply';

/** The finish reasons of a reply cut by a token limit. */
const OPENAI_TRUNCATED: ReadonlySet<string> = new Set(['length']);

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

/** Some servers omit a delta's index; the SDK's type says it is always there. */
type WireToolCall = Omit<ChatCompletionChunk.Choice.Delta.ToolCall, 'index'> & { index?: number };

/** An error chunk's `error` ({message, code}) as an HttpStatusError (its code when it is a status, else 500). */
export function openaiStreamError(error: unknown): HttpStatusError {
  const e = error as { message?: unknown; code?: unknown } | undefined;
  return new HttpStatusError(typeof e?.code === 'number' ? e.code : 500, typeof e?.message === 'string' ? e.message : 'error chunk in the stream');
}

export class OpenAIStream {
  private text = '';
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();
  private usage?: WireUsage;
  private model?: string;
  private id?: string;
  private stopReason?: string;
  /** A finish_reason arrived: a stream that then ends cleanly is whole (with or without [DONE], which the SDK consumes). */
  finished = false;

  /** `fallbackId(i)`: an ID for a call the server sent without one (unique within the run). */
  constructor(private readonly fallbackId: (index: number) => string) {}

  onChunk(j: ChatCompletionChunk): void {
    if (j.id) this.id = j.id;
    if (j.model) this.model = j.model;
    if (j.usage) this.usage = j.usage;
    const choice = j.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    if (choice.delta?.content) this.text += choice.delta.content;
    ((choice.delta?.tool_calls ?? []) as WireToolCall[]).forEach((tc, pos) => this.addCallDelta(tc, pos));
    if (choice.finish_reason) {
      this.finished = true;
      this.stopReason = choice.finish_reason;
    }
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
    return parsedReply(
      { text: this.text, calls },
      { usage: this.usage ? rawUsage(this.usage) : undefined, model: this.model, id: this.id, stopReason: this.stopReason },
      OPENAI_TRUNCATED,
    );
  }
}

function rawUsage(u: WireUsage): RawUsage {
  const prompt = u.prompt_tokens ?? 0;
  const cached = u.prompt_tokens_details?.cached_tokens;
  const r: RawUsage = { inputTokens: prompt - (cached ?? 0), outputTokens: u.completion_tokens ?? 0 };
  if (typeof cached === 'number') r.cacheReadTokens = cached;
  return r;
}

/** A completion that did not stream (one JSON document: the SDK's ChatCompletion, or what a server sent instead of a stream). */
export interface OpenAIWholeCompletion {
  id?: string;
  model?: string;
  choices?: {
    message?: { content?: string | null; tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] };
    finish_reason?: string | null;
  }[];
  usage?: WireUsage | null;
}

export function parseOpenAICompletion(j: OpenAIWholeCompletion, fallbackId: (index: number) => string): ParsedReply {
  const choice = j.choices?.[0];
  const msg = choice?.message;
  const calls = (msg?.tool_calls ?? []).map((c, i) => ({
    id: c.id || fallbackId(i),
    name: c.function?.name ?? '',
    args: rawArgs(c.function?.arguments ?? ''),
  }));
  return parsedReply(
    { text: msg?.content ?? '', calls },
    { usage: j.usage ? rawUsage(j.usage) : undefined, model: j.model, id: j.id, stopReason: choice?.finish_reason },
    OPENAI_TRUNCATED,
  );
}
