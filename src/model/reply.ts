/**
 * Turning what a provider streamed into a ModelReply: text, calls in order, the stop
 * reason (and whether the reply was cut by a token limit), and usage priced with the
 * PriceTable. A model with no price, or a server that reported no usage
 * (some local OpenAI-compatible servers), costs $0 and is reported once through `warn`
 * as unpriced, so a dollar budget is never silently trusted for it.
 */
import type { ModelReply, ToolCall, Usage } from '../core/conversation';
import { PriceTable } from './prices';

export type RawUsage = Omit<Usage, 'dollars'>;

/** What a provider read from the wire, before pricing. */
export interface ParsedReply {
  text: string;
  calls: ToolCall[];
  /** Unset when the server reported none. */
  usage?: RawUsage;
  model?: string;
  replyId?: string;
  /** The provider's own stop reason (end_turn, tool_use, max_tokens, stop, length, tool_calls...). */
  stopReason?: string;
  /** The reply was cut by a token limit (the provider decides which stop reasons mean that). */
  truncated?: true;
}

/**
 * A ParsedReply from the text and calls a provider read, plus what it said about the
 * reply: usage (in our units), the model and ID, and the stop reason, with `truncated`
 * when `cutBy` (the provider's stop reasons for a token limit) holds it.
 */
export function parsedReply(
  body: { text: string; calls: ToolCall[] },
  m: { usage?: RawUsage | undefined; model?: string | null | undefined; id?: string | null | undefined; stopReason?: string | null | undefined },
  cutBy: ReadonlySet<string>,
): ParsedReply {
  const r: ParsedReply = { text: body.text, calls: body.calls };
  if (m.usage) r.usage = m.usage;
  if (m.model) r.model = m.model;
  if (m.id) r.replyId = m.id;
  if (m.stopReason) {
    r.stopReason = m.stopReason;
    if (cutBy.has(m.stopReason)) r.truncated = true;
  }
  return r;
}

/** IDs for calls a server sent without one: unique within a run (the turn is part of it), so idempotency keys stay unique. */
export function fallbackCallId(turn: number): (index: number) => string {
  return (index) => `call_t${turn}_${index}`;
}

export class Pricer {
  private readonly warned = new Set<string>();
  constructor(
    readonly prices: PriceTable = new PriceTable(),
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /** Usage with dollars. `reported` false: the server sent no usage, so tokens and dollars are 0. */
  usage(model: string, raw: RawUsage | undefined, fallbackModel: string): Usage {
    if (!raw) {
      this.once(
        `nousage:${model}`,
        `${model} reported no token usage; this reply is counted as 0 tokens and $0 (unpriced), so token and dollar budgets do not see it.`,
      );
      return { inputTokens: 0, outputTokens: 0, dollars: 0 };
    }
    const priced = this.prices.find(model) ? model : this.prices.find(fallbackModel) ? fallbackModel : undefined;
    if (!priced)
      this.once(`noprice:${model}`, `No price is known for model ${model}; its replies are counted as $0 (unpriced). Add it to the price table setting.`);
    const u: Usage = { inputTokens: raw.inputTokens, outputTokens: raw.outputTokens, dollars: priced ? this.prices.dollars(priced, raw) : 0 };
    if (raw.cacheReadTokens !== undefined) u.cacheReadTokens = raw.cacheReadTokens;
    if (raw.cacheWriteTokens !== undefined) u.cacheWriteTokens = raw.cacheWriteTokens;
    return u;
  }

  /** The priced ModelReply for what a provider read; `requested` is the model asked for (the server may name a dated snapshot). */
  reply(parsed: ParsedReply, requested: string): ModelReply {
    const model = parsed.model ?? requested;
    return makeReply({
      text: parsed.text,
      calls: parsed.calls,
      usage: this.usage(model, parsed.usage, requested),
      model,
      ...(parsed.replyId ? { replyId: parsed.replyId } : {}),
      ...(parsed.stopReason ? { stopReason: parsed.stopReason } : {}),
      ...(parsed.truncated ? { truncated: true as const } : {}),
    });
  }

  private once(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(message);
  }
}

/** A ModelReply with unset fields left out (the state codec keeps unset as unset). */
export function makeReply(parts: {
  text: string;
  calls: ToolCall[];
  usage: Usage;
  model: string;
  replyId?: string;
  stopReason?: string;
  truncated?: true;
}): ModelReply {
  const r: ModelReply = { calls: parts.calls, usage: parts.usage, model: parts.model };
  if (parts.text !== '') r.text = parts.text;
  if (parts.replyId) r.replyId = parts.replyId;
  if (parts.stopReason) r.stopReason = parts.stopReason;
  if (parts.truncated) r.truncated = true;
  return r;
}

/** The raw args of a streamed call: the fragments as sent, or `{}` when the model sent none at all (a call with no arguments). */
export function rawArgs(fragments: string): string {
  return fragments !== '' ? fragments : '{}';
}
