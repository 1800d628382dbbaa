/**
 * The recording format: a conversation the recorded model replays. Written by the
 * authoring script for the bundled tasks, and by `--record FILE` from a live run.
 */
import { z } from 'zod';
import { TokenCountsSchema, ToolCallSchema } from '../core/conversation';
import { parseSchema } from '../core/schema';

export const RECORDING_VERSION = 1;

const CountSchema = z.number().int().nonnegative();

export const RecordedTurnSchema = z.object({
  /** What the conversation must look like when this turn is asked for (divergence check). */
  expect: z.object({
    /** Number of messages sent (after any summary), and the call IDs of the tool results that precede the request. */
    messages: CountSchema,
    toolResults: z.array(z.string()),
  }),
  reply: z.object({
    text: z.string().optional(),
    calls: z.array(ToolCallSchema),
    /** Tokens as the provider reported them; dollars are recomputed from the price table at replay. */
    usage: z.object({
      inputTokens: CountSchema,
      outputTokens: CountSchema,
      cacheReadTokens: CountSchema.optional(),
      cacheWriteTokens: CountSchema.optional(),
    }) satisfies z.ZodType<z.infer<typeof TokenCountsSchema>>,
    /** The provider's stop reason, and whether the reply was cut by a token limit (absent in older recordings). */
    stopReason: z.string().optional(),
    truncated: z.literal(true).optional(),
  }),
  /** How long the live call took, for realistic progress (the replay does not sleep by default). */
  latencyMs: CountSchema.optional(),
});
export type RecordedTurn = z.infer<typeof RecordedTurnSchema>;

export const RecordingSchema = z.object({
  version: z.literal(RECORDING_VERSION),
  /** The task (catalog name) or a free description for a recorded live run. */
  task: z.string(),
  /** The model that produced the replies (priced with the price table). */
  model: z.string(),
  /** The system prompt and first user message the recording starts from. */
  system: z.string(),
  prompt: z.string(),
  turns: z.array(RecordedTurnSchema),
});
export type Recording = z.infer<typeof RecordingSchema>;

/** Checks parsed JSON is a Recording; throws a SchemaError naming the first bad field. */
export function validateRecording(raw: unknown): Recording {
  return parseSchema(RecordingSchema, raw);
}
