/**
 * The conversation every layer shares: tool calls and their results, messages, token usage
 * and a model's reply. One zod schema each; the TypeScript types are inferred from them, and
 * the run state, the recordings and the providers all use these.
 *
 * Raw JSON written by the model (a tool call's arguments) is kept as a string, valid or not,
 * so invalid arguments never stop a save.
 */
import { z } from 'zod';

/** One tool call from a model reply. `args` is the model's raw JSON text, valid or not. */
export const ToolCallSchema = z.object({ id: z.string(), name: z.string(), args: z.string() });
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const ToolResultSchema = z.object({ callId: z.string(), content: z.string(), isError: z.boolean().optional() });
export type ToolResult = z.infer<typeof ToolResultSchema>;

export const MessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), text: z.string().optional(), calls: z.array(ToolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), results: z.array(ToolResultSchema) }),
]);
export type Message = z.infer<typeof MessageSchema>;

export const TokenCountsSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
});

export const UsageSchema = TokenCountsSchema.extend({ dollars: z.number() });
export type Usage = z.infer<typeof UsageSchema>;

/** A model reply as it arrived: saved (save point 2) before any of its calls run. */
export const ModelReplySchema = z.object({
  text: z.string().optional(),
  calls: z.array(ToolCallSchema),
  usage: UsageSchema,
  model: z.string(),
  /** The provider's own ID for the reply, where it gives one. */
  replyId: z.string().optional(),
  /** The provider's own stop reason, where it gives one (end_turn, tool_use, max_tokens, stop, length, tool_calls, content_filter...). */
  stopReason: z.string().optional(),
  /** Set when the reply was cut by a token limit (Anthropic max_tokens or model_context_window_exceeded, OpenAI length): it is not a whole answer. */
  truncated: z.literal(true).optional(),
});
export type ModelReply = z.infer<typeof ModelReplySchema>;

/** The context policy's summary of older turns, so a resumed run sends the same context. */
export const ContextSummarySchema = z.object({
  text: z.string(),
  /** How many leading messages the summary replaces. */
  covers: z.number(),
});
export type ContextSummary = z.infer<typeof ContextSummarySchema>;

export function zeroUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, dollars: 0 };
}

/** Every token a run was billed for: input, output, and cache reads and writes. */
export function tokensUsed(u: Usage): number {
  return u.inputTokens + u.outputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0);
}

export function addUsage(a: Usage, b: Usage): Usage {
  const u: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    dollars: a.dollars + b.dollars,
  };
  const cr = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const cw = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (a.cacheReadTokens !== undefined || b.cacheReadTokens !== undefined) u.cacheReadTokens = cr;
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined) u.cacheWriteTokens = cw;
  return u;
}
