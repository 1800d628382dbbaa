/**
 * How a tool is described to a model: its name, what it does, and a JSON Schema object for its
 * arguments (the subset providers accept). The tools build the schema from their zod argument
 * schemas; the providers send it as it is.
 */

/** A JSON Schema object for a tool's arguments. */
export interface JsonSchema {
  type: 'object';
  properties: Record<string, { type?: string; description?: string; items?: unknown; enum?: unknown[]; [k: string]: unknown }>;
  required?: string[];
  additionalProperties?: boolean;
  [k: string]: unknown;
}

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  schema: JsonSchema;
}
