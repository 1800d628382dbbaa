/**
 * A tool's arguments as the model sees them and as the loop checks them, both from the one zod
 * schema the tool declares: the JSON Schema sent with every model request, and the parse of the
 * model's raw JSON text before the call runs. A problem is an error result the model can read,
 * naming the tool and the argument ("Invalid arguments for read_file: argument "path" is
 * required.").
 */
import { z } from 'zod';
import type { JsonSchema, ToolSpec } from '../core/tool-schema';
import { issueText } from '../core/schema';
import type { Tool } from './tool';

export type ParsedArgs<A> = { ok: true; args: A } | { ok: false; error: string };

const specs = new WeakMap<Tool, ToolSpec>();
/** The JSON Schema of each argument schema object: tools are made again in every life, their schemas are module constants (or per run). */
const schemas = new WeakMap<z.ZodType, JsonSchema>();

/** The tool as the model is told about it (computed once per tool object, its JSON Schema once per schema object). */
export function toolSpec(tool: Tool): ToolSpec {
  let spec = specs.get(tool);
  if (!spec && tool.inputSchema) {
    spec = { name: tool.name, description: tool.description, schema: tool.inputSchema };
    specs.set(tool, spec);
  }
  if (!spec) {
    let schema = schemas.get(tool.args);
    if (!schema) {
      const { $schema: _, ...json } = z.toJSONSchema(tool.args, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      if (json.type !== 'object') throw new TypeError(`tool ${tool.name} declares arguments that are not an object`);
      schema = json as JsonSchema;
      schemas.set(tool.args, schema);
    }
    spec = { name: tool.name, description: tool.description, schema, ...(tool.vendor ? { vendor: tool.vendor } : {}) };
    specs.set(tool, spec);
  }
  return spec;
}

/** The model's raw argument text, parsed and checked against the tool's schema. */
export function parseToolArgs<A>(tool: Tool<A>, raw: string): ParsedArgs<A> {
  let v: unknown;
  try {
    v = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (e) {
    return { ok: false, error: `Invalid arguments for ${tool.name}: ${(e as Error).message}. Arguments must be a JSON object.` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: `Invalid arguments for ${tool.name}: expected a JSON object.` };
  const r = tool.args.safeParse(v);
  if (r.success) return { ok: true, args: r.data };
  return { ok: false, error: `Invalid arguments for ${tool.name}: ${issueText(r.error.issues[0], v, '', { noun: 'argument' })}.` };
}
