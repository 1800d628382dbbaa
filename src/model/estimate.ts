/**
 * Cheap, deterministic size estimates (about four characters per token) so the loop can
 * stop BEFORE a model call that would push a run past its token or dollar budget, and the
 * context policy can tell when a conversation outgrows the model's window.
 */
import type { Message } from '../core/conversation';
import type { ModelRequest } from './provider';
import { PriceTable } from './prices';

export const CHARS_PER_TOKEN = 4;

export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters a message puts on the wire (content, text, call names and raw args, result contents). */
export function messageChars(m: Message): number {
  switch (m.role) {
    case 'user':
      return m.content.length;
    case 'assistant':
      return (m.text?.length ?? 0) + (m.calls ?? []).reduce((n, c) => n + c.id.length + c.name.length + c.args.length, 0);
    case 'tool':
      return m.results.reduce((n, r) => n + r.callId.length + r.content.length, 0);
  }
}

/** Estimated input tokens of a request: system, summary, messages and tool specs. */
export function estimateRequestTokens(req: ModelRequest): number {
  let chars = req.system.length + (req.summary?.text.length ?? 0);
  for (const m of req.messages) chars += messageChars(m);
  for (const t of req.tools) chars += t.name.length + t.description.length + JSON.stringify(t.schema).length;
  return tokensOfChars(chars);
}

export interface CallEstimate {
  tokens: number;
  dollars: number;
}

/**
 * Estimated cost of sending `req` to `model`: its input tokens (plus `outputAllowance`
 * output tokens, e.g. the reply's max_tokens when you want to be strict), priced as
 * uncached input. Unknown models cost $0.
 */
export function estimateCall(req: ModelRequest, model: string, prices: PriceTable = new PriceTable(), outputAllowance = 0): CallEstimate {
  const tokens = estimateRequestTokens(req);
  return { tokens: tokens + outputAllowance, dollars: prices.dollars(model, { inputTokens: tokens, outputTokens: outputAllowance }) };
}
