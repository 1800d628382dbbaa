/**
 * Reading an Anthropic Messages reply: the streamed events (message_start,
 * content_block_start/delta/stop, message_delta, message_stop, error), or the whole JSON
 * message when the server did not stream. Text deltas are concatenated per block; a
 * tool_use block's input_json_delta fragments are concatenated as they came, and that
 * raw text IS the call's args (invalid JSON stays as it is).
 */
import { HttpStatusError, TransientError, type SseEvent } from './http';
import { rawArgs, type ParsedReply, type RawUsage } from './reply';

type Block = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; json: string; startInput: string };

interface WireUsage {
  input_tokens?: number;
  output_tokens?: number;
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

/** An error object from the API ({type, message}) as an HttpStatusError with the status its type stands for. */
export function anthropicError(err: { type?: string; message?: string } | undefined): HttpStatusError {
  const status = ERROR_STATUS[err?.type ?? ''] ?? 500;
  return new HttpStatusError(status, err?.message ?? err?.type ?? 'error event in the stream');
}

export class AnthropicStream {
  private readonly blocks = new Map<number, Block>();
  private usage: WireUsage | undefined;
  private model?: string;
  private id?: string;
  /** True once message_stop arrived: the reply is whole. */
  done = false;

  /** `fallbackId(i)`: an ID for a tool_use block the server sent without one (unique within the run). */
  constructor(private readonly fallbackId: (index: number) => string) {}

  onEvent(ev: SseEvent): void {
    let j: Record<string, unknown>;
    try {
      j = JSON.parse(ev.data) as Record<string, unknown>;
    } catch {
      throw new TransientError(`the reply stream sent a malformed ${ev.event} event`);
    }
    const type = (j.type as string | undefined) ?? ev.event;
    switch (type) {
      case 'message_start': {
        const m = j.message as { id?: string; model?: string; usage?: WireUsage } | undefined;
        this.id = m?.id;
        this.model = m?.model;
        this.usage = { ...m?.usage };
        break;
      }
      case 'content_block_start': {
        const b = j.content_block as { type: string; text?: string; id?: string; name?: string; input?: unknown };
        const index = j.index as number;
        if (b.type === 'text') this.blocks.set(index, { kind: 'text', text: b.text ?? '' });
        else if (b.type === 'tool_use') {
          const startInput = b.input && typeof b.input === 'object' && Object.keys(b.input).length > 0 ? JSON.stringify(b.input) : '';
          this.blocks.set(index, { kind: 'tool', id: b.id || this.fallbackId(index), name: b.name ?? '', json: '', startInput });
        }
        break;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(j.index as number);
        const d = j.delta as { type: string; text?: string; partial_json?: string };
        if (block?.kind === 'text' && d.type === 'text_delta') block.text += d.text ?? '';
        if (block?.kind === 'tool' && d.type === 'input_json_delta') block.json += d.partial_json ?? '';
        break;
      }
      case 'message_delta': {
        const u = j.usage as WireUsage | undefined;
        if (u) this.usage = { ...this.usage, ...definedOnly(u) };
        break;
      }
      case 'message_stop':
        this.done = true;
        break;
      case 'error':
        throw anthropicError(j.error as { type?: string; message?: string });
      default:
        break; // ping, content_block_stop, and blocks we do not use (thinking...)
    }
  }

  result(): ParsedReply {
    const ordered = [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    const text = ordered.flatMap((b) => (b.kind === 'text' && b.text !== '' ? [b.text] : [])).join('\n');
    const calls = ordered.flatMap((b) => (b.kind === 'tool' ? [{ id: b.id, name: b.name, args: rawArgs(b.json !== '' ? b.json : b.startInput) }] : []));
    const r: ParsedReply = { text, calls };
    if (this.usage) r.usage = rawUsage(this.usage);
    if (this.model) r.model = this.model;
    if (this.id) r.replyId = this.id;
    return r;
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

/** A non-streamed Messages reply (one JSON message). */
export function parseAnthropicMessage(
  j: {
  id?: string;
  model?: string;
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
  usage?: WireUsage;
  },
  fallbackId: (index: number) => string,
): ParsedReply {
  const text = (j.content ?? []).flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])).join('\n');
  const calls = (j.content ?? []).flatMap((b, i) => (b.type === 'tool_use' ? [{ id: b.id || fallbackId(i), name: b.name ?? '', args: JSON.stringify(b.input ?? {}) }] : []));
  const r: ParsedReply = { text, calls };
  if (j.usage) r.usage = rawUsage(j.usage);
  if (j.model) r.model = j.model;
  if (j.id) r.replyId = j.id;
  return r;
}
