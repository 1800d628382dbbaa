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

/** A vendor whose models are trained on a tool of that shape (the providers offer it only to them). */
export type ToolVendor = 'anthropic' | 'openai';

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  schema: JsonSchema;
  /** Offered only to this vendor's provider; undefined: to every provider. */
  vendor?: ToolVendor;
}

/** The tools a provider offers: those for every model and those for its own vendor. */
export function offeredTo(tools: readonly ToolSpec[], vendor: ToolVendor | undefined): ToolSpec[] {
  return tools.filter((t) => t.vendor === undefined || t.vendor === vendor);
}

/** The name of Anthropic's text editor tool (Claude 4's str_replace_based_edit_tool), ours and the built-in one alike. */
export const TEXT_EDITOR_NAME = 'str_replace_based_edit_tool';
