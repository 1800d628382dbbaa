/**
 * A server's tools as a run saves them at its start (store/saved-mcp.ts), and the comparison a
 * resumed run makes with what the server lists now: a tool gone, or a changed input or output
 * schema, stops the run (McpToolsChangedError). A new tool is no change: the run offers only
 * the saved ones.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { BadInputError } from '../core/errors';
import type { SavedMcpServer, SavedMcpTool } from '../store/saved-mcp';
import type { ServerConfig } from './config';
import { modelName } from './names';

/** The tools of a server as the run will save them, with the configuration's overrides applied. */
export function saveTools(server: string, config: ServerConfig, listed: McpTool[], file: string): SavedMcpServer {
  const names = new Set(listed.map((t) => t.name));
  for (const field of ['readOnly', 'idempotent', 'mutating'] as const)
    for (const n of config[field] ?? [])
      if (!names.has(n))
        throw new BadInputError(
          `The MCP configuration ${file}: server "${server}" "${field}" names "${n}", which the server does not list (it lists ${[...names].join(', ')}).`,
        );
  const tools: SavedMcpTool[] = [];
  for (const t of listed) {
    const as = modelName(server, t.name);
    if (!as) continue;
    const a = t.annotations;
    const mutating = config.mutating?.includes(t.name) === true;
    const readOnly = !mutating && (config.readOnly?.includes(t.name) === true || a?.readOnlyHint === true);
    const idempotent = !mutating && (config.idempotent?.includes(t.name) === true || a?.idempotentHint === true);
    const saved: SavedMcpTool = { name: t.name, as, inputSchema: t.inputSchema as Record<string, unknown>, readOnly, idempotent };
    if (t.description !== undefined) saved.description = t.description;
    if (t.outputSchema) saved.outputSchema = t.outputSchema as Record<string, unknown>;
    if (a) saved.annotations = a as Record<string, unknown>;
    tools.push(saved);
  }
  for (const [tool, l] of Object.entries(config.lookup ?? {})) {
    if (!names.has(tool))
      throw new BadInputError(`The MCP configuration ${file}: server "${server}" has a lookup for "${tool}", which the server does not list.`);
    const read = tools.find((t) => t.name === l.tool);
    if (!read) throw new BadInputError(`The MCP configuration ${file}: the lookup of "${server}/${tool}" calls "${l.tool}", which the server does not list.`);
    if (!read.readOnly)
      throw new BadInputError(
        `The MCP configuration ${file}: the lookup of "${server}/${tool}" calls "${l.tool}", which is not read-only (its annotations say so; add it to "readOnly" if it only reads).`,
      );
  }
  if (config.tracker) {
    const { file: f, list } = config.tracker;
    if (!names.has(f.tool))
      throw new BadInputError(`The MCP configuration ${file}: server "${server}" "tracker.file" calls "${f.tool}", which the server does not list.`);
    const read = tools.find((t) => t.name === list.tool);
    if (!read)
      throw new BadInputError(`The MCP configuration ${file}: server "${server}" "tracker.list" calls "${list.tool}", which the server does not list.`);
    if (!read.readOnly)
      throw new BadInputError(
        `The MCP configuration ${file}: server "${server}" "tracker.list" calls "${list.tool}", which is not read-only (its annotations say so; add it to "readOnly" if it only reads).`,
      );
  }
  return { server, tools };
}

/** What differs between the saved tools and the listed ones (empty: the same). */
export function toolChanges(saved: SavedMcpServer, listed: McpTool[]): string[] {
  const changes: string[] = [];
  for (const s of saved.tools) {
    const now = listed.find((t) => t.name === s.name);
    if (!now) {
      changes.push(`${s.name} is gone`);
      continue;
    }
    if (!same(now.inputSchema, s.inputSchema)) changes.push(`${s.name} takes other arguments`);
    if (!same(now.outputSchema, s.outputSchema)) changes.push(`${s.name} declares another result`);
  }
  return changes;
}

/** Equal as saved JSON (a field set to undefined is no field). */
function same(a: unknown, b: unknown): boolean {
  const json = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
  return isDeepStrictEqual(json(a), json(b));
}
