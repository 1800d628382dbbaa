/**
 * Reading an Anthropic Messages reply: the streamed events as the SDK parsed them
 * (message_start, content_block_start/delta, message_delta, message_stop), or the whole
 * message when the server did not stream. Text deltas are concatenated per block; a
 * tool_use block's input_json_delta fragments are concatenated as they came, and that
 * raw text IS the call's args (invalid JSON stays as it is: the SDK's own accumulator,
 * which parses them, is not used).
 *
 * The stop reason is kept; `max_tokens` (the reply's token limit) and
 * `model_context_window_exceeded` (the context window's) mean the reply was cut short.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { HttpStatusError } from './attempt';
import { rawArgs, parsedReply, type ParsedReply, type RawUsage } from './reply';

/** The stop reasons of a reply cut by a token limit. */
const ANTHROPIC_TRUNCATED: ReadonlySet<string> = new Set(['max_tokens', 'model_context_window_exceeded']);

type Block = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; json: string; startInput: string };

interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** An error event's body ({type: 'error', error: {type, message}}) as an HttpStatusError with the status its type stands for. */
export function anthropicStreamError(body: unknown): HttpStatusError {
  const err = (body as { error?: { type?: unknown; message?: unknown } } | undefined)?.error;
  const type = typeof err?.type === 'string' ? err.type : '';
  const message = typeof err?.message === 'string' ? err.message : type || 'error event in the stream';
  return new HttpStatusError(ERROR_STATUS[type] ?? 500, message);
}

export class AnthropicStream {
  private readonly blocks = new Map<number, Block>();
  private usage: WireUsage | undefined;
  private model?: string;
  private id?: string;
  private stopReason?: string;
  /** True once message_stop arrived: the reply is whole. */
  done = false;

  /** `fallbackId(i)`: an ID for a tool_use block the server sent without one (unique within the run). */
  constructor(private readonly fallbackId: (index: number) => string) {}

  onEvent(ev: RawMessageStreamEvent): void {
    switch (ev.type) {
      case 'message_start':
        this.id = ev.message?.id;
        this.model = ev.message?.model;
        this.usage = { ...ev.message?.usage };
        break;
      case 'content_block_start': {
        const b = ev.content_block;
        if (b.type === 'text') this.blocks.set(ev.index, { kind: 'text', text: b.text ?? '' });
        else if (b.type === 'tool_use') {
          const input = b.input;
          const startInput = input && typeof input === 'object' && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
          this.blocks.set(ev.index, { kind: 'tool', id: b.id || this.fallbackId(ev.index), name: b.name ?? '', json: '', startInput });
        }
        break;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(ev.index);
        const d = ev.delta;
        if (block?.kind === 'text' && d.type === 'text_delta') block.text += d.text ?? '';
        if (block?.kind === 'tool' && d.type === 'input_json_delta') block.json += d.partial_json ?? '';
        break;
      }
      case 'message_delta':
        if (ev.delta?.stop_reason) this.stopReason = ev.delta.stop_reason;
        if (ev.usage) this.usage = { ...this.usage, ...definedOnly(ev.usage) };
        break;
      case 'message_stop':
        this.done = true;
        break;
      default:
        break; // content_block_stop, and blocks we do not use (thinking...)
    }
  }

  result(): ParsedReply {
    const ordered = [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    const text = ordered.flatMap((b) => (b.kind === 'text' && b.text !== '' ? [b.text] : [])).join('\n');
    const calls = ordered.flatMap((b) => (b.kind === 'tool' ? [{ id: b.id, name: b.name, args: rawArgs(b.json !== '' ? b.json : b.startInput) }] : []));
    return parsedReply(
      { text, calls },
      { usage: this.usage ? rawUsage(this.usage) : undefined, model: this.model, id: this.id, stopReason: this.stopReason },
      ANTHROPIC_TRUNCATED,
    );
  }
}

function definedOnly(u: WireUsage): WireUsage {
  return Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null)) as WireUsage;
}

function rawUsage(u: WireUsage): RawUsage {
  const r: RawUsage = { inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0 };
  if (typeof u.cache_read_input_tokens === 'number') r.cacheReadTokens = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === 'number') r.cacheWriteTokens = u.cache_creation_input_tokens;
  return r;
}

/** A Messages reply that did not stream (one JSON message; the SDK's Message, or what a server sent instead of a stream). */
export interface AnthropicWholeMessage {
  id?: string;
  model?: string;
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
  usage?: WireUsage;
  stop_reason?: string | null;
}

export function parseAnthropicMessage(j: AnthropicWholeMessage, fallbackId: (index: number) => string): ParsedReply {
  const text = (j.content ?? []).flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])).join('\n');
  const calls = (j.content ?? []).flatMap((b, i) =>
    b.type === 'tool_use' ? [{ id: b.id || fallbackId(i), name: b.name ?? '', args: JSON.stringify(b.input ?? {}) }] : [],
  );
  return parsedReply(
    { text, calls },
    { usage: j.usage ? rawUsage(j.usage) : undefined, model: j.model, id: j.id, stopReason: j.stop_reason },
    ANTHROPIC_TRUNCATED,
  );
}
