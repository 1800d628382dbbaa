/**
 * What MCP tools are called. The model calls a server's tool `<server>__<tool>` (letters, digits,
 * `_` and `-` only, at most 64 characters: what every provider accepts); approvals and the
 * configuration name it `server/tool`. The idempotency key travels in the request's `_meta`
 * under IDEMPOTENCY_META_KEY, never in the arguments.
 */

/** The `_meta` key (a reverse-DNS prefix, as MCP allows) under which each call's idempotency key is sent. */
export const IDEMPOTENCY_META_KEY = 'io.durabletriage/idempotency-key';

const MAX_NAME = 64;

/** The model-safe name of `tool` of `server`; undefined when it cannot be made (the tool is then left out, and said so). */
export function modelName(server: string, tool: string): string | undefined {
  const safe = `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return safe.length <= MAX_NAME ? safe : undefined;
}

/** `server/tool`, as approvals and messages name an MCP tool. */
export function qualifiedName(server: string, tool: string): string {
  return `${server}/${tool}`;
}
