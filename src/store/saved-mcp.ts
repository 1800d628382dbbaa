/**
 * The MCP servers' tools as a run saw them at its start, saved with the run's config so a
 * resumed run offers the model the same tools (and can tell when a server changed them). Only
 * what the model and the ladder need: no command line, environment or headers (they may hold
 * secrets; the configuration file is read again on resume).
 */
import { z } from 'zod';

/** A JSON Schema as a server declared it (kept as it is). */
const JsonObjectSchema = z.record(z.string(), z.unknown());

export const SavedMcpToolSchema = z.object({
  /** The tool's name on its server. */
  name: z.string(),
  /** The name the model calls it by (`<server>__<tool>`, model-safe). */
  as: z.string(),
  description: z.string().optional(),
  inputSchema: JsonObjectSchema,
  outputSchema: JsonObjectSchema.optional(),
  /** The server's annotations, as it declared them. */
  annotations: JsonObjectSchema.optional(),
  /** What the run treats the tool as (annotations with the configuration's overrides), fixed at the run's start. */
  readOnly: z.boolean(),
  idempotent: z.boolean(),
});
export type SavedMcpTool = z.infer<typeof SavedMcpToolSchema>;

export const SavedMcpServerSchema = z.object({
  /** The server's name in the configuration file. */
  server: z.string(),
  tools: z.array(SavedMcpToolSchema),
});
export type SavedMcpServer = z.infer<typeof SavedMcpServerSchema>;
