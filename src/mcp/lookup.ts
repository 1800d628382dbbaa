/**
 * The ladder's second step for an MCP tool: ask a read-only tool of the same server whether the
 * call happened (config.ts LookupSchema). Certain answers only: "done" when `found` holds,
 * "not-done" when the lookup answered and it does not; a lookup error, or a result it cannot
 * read, throws, and the question goes to a person.
 */
import type { LookupAnswer, ToolContext } from '../agent/tool';
import type { LookupConfig } from './config';
import type { McpConnection } from './connection';
import { jsonOf, outputOf } from './result';

/** The value at a dotted path (`entities.0.name`) of `v`, or undefined. */
export function valueAt(v: unknown, path: string): unknown {
  let cur = v;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * `template` with each `{path}` filled from the call (`{key}`: its idempotency key): a string that
 * is exactly one `{path}` becomes that value as it is (an array stays an array); inside a longer
 * string, its text. A path the call does not have throws (the lookup cannot ask).
 */
export function fill(template: unknown, args: unknown, key: string | undefined): unknown {
  const get = (p: string): unknown => {
    const v = p === 'key' ? key : valueAt(args, p);
    if (v === undefined) throw new Error(p === 'key' ? 'the call was sent without an idempotency key' : `the call has no argument at "${p}"`);
    return v;
  };
  if (typeof template === 'string') {
    const whole = /^\{([^{}]+)\}$/.exec(template);
    if (whole) return get(whole[1]);
    return template.replace(/\{([^{}]+)\}/g, (_m, p: string) => {
      const v = get(p);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, args, key));
  if (typeof template === 'object' && template !== null) return Object.fromEntries(Object.entries(template).map(([k, t]) => [k, fill(t, args, key)]));
  return template;
}

export async function runLookup(conn: McpConnection, tool: string, l: LookupConfig, args: unknown, ctx: ToolContext): Promise<LookupAnswer> {
  const r = await conn.call(l.tool, fill(l.args, args, ctx.key) as Record<string, unknown>, undefined, ctx.signal);
  const out = outputOf(r);
  if (out.isError) throw new Error(`${l.tool} answered with an error: ${out.content}`);
  let found: boolean;
  if ('contains' in l.found) {
    found = out.content.includes(String(fill(l.found.contains, args, ctx.key)));
  } else {
    const json = jsonOf(r);
    if (json === undefined) throw new Error(`${l.tool} answered with something that is not JSON, so "${l.found.path}" cannot be read`);
    const want = fill(l.found.equals, args, ctx.key);
    found = JSON.stringify(valueAt(json, l.found.path)) === JSON.stringify(want);
  }
  if (!found) return { status: 'not-done' };
  return { status: 'done', output: { content: `${tool} had already happened before the restart (found by ${l.tool}): ${out.content}` } };
}
