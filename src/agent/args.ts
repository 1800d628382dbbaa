/**
 * A model's tool-call arguments: raw JSON text, checked against the tool's schema
 * before the call runs. A problem becomes an error result the model can read.
 */
import type { JsonSchema } from './tool';

export type ParsedArgs = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

export function parseArgs(tool: string, raw: string, schema: JsonSchema): ParsedArgs {
  let v: unknown;
  try {
    v = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (e) {
    return { ok: false, error: `Invalid arguments for ${tool}: ${(e as Error).message}. Arguments must be a JSON object.` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: `Invalid arguments for ${tool}: expected a JSON object.` };
  const args = v as Record<string, unknown>;
  for (const r of schema.required ?? []) {
    if (!Object.hasOwn(args, r) || args[r] === undefined) return { ok: false, error: `Invalid arguments for ${tool}: "${r}" is required.` };
  }
  for (const [k, val] of Object.entries(args)) {
    const prop = Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
    if (!prop) {
      if (schema.additionalProperties === false) return { ok: false, error: `Invalid arguments for ${tool}: unknown argument "${k}".` };
      continue;
    }
    if (!hasType(val, prop.type)) return { ok: false, error: `Invalid arguments for ${tool}: "${k}" should be ${article(prop.type)}.` };
    if (prop.enum && typeof val === 'string' && !prop.enum.includes(val)) return { ok: false, error: `Invalid arguments for ${tool}: "${k}" should be one of ${prop.enum.join(', ')}.` };
  }
  return { ok: true, args };
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      return true;
  }
}

function article(t: string): string {
  return t === 'array' || t === 'integer' || t === 'object' ? `an ${t}` : `a ${t}`;
}
