/**
 * An MCP server's saved tools as the agent's Tools. Each call sends the run's idempotency key in
 * the request's `_meta` (IDEMPOTENCY_META_KEY), never in the arguments. What the ladder needs:
 * read-only (annotations or configuration) runs freely; idempotent goes to rung 1; every other
 * call gets an attempt marker (the loop marks every tool that is not read-only) and, after a
 * crash, goes to its configured lookup, else to a person.
 */
import { z } from 'zod';
import type { JsonSchema } from '../core/tool-schema';
import type { Tool, ToolContext, ToolOutput } from '../agent/tool';
import type { SavedMcpServer, SavedMcpTool } from '../store/saved-mcp';
import type { ServerConfig } from './config';
import type { McpConnection } from './connection';
import { IDEMPOTENCY_META_KEY, qualifiedName } from './names';
import { outputOf } from './result';
import { runLookup } from './lookup';

type Args = Record<string, unknown>;

const qualified = new WeakMap<Tool, string>();

/** `server/tool` for an MCP tool (approvals may name it so), undefined for any other tool. */
export function mcpQualifiedName(t: Tool): string | undefined {
  return qualified.get(t);
}

/** The checks of the tool's input schema (anything zod cannot read from it: any object). */
function argsSchema(schema: Record<string, unknown>): z.ZodType<Args> {
  try {
    return z.fromJSONSchema(schema) as z.ZodType<Args>;
  } catch {
    return z.looseObject({}) as z.ZodType<Args>;
  }
}

function jsonSchemaOf(t: SavedMcpTool): JsonSchema {
  const s = { ...t.inputSchema };
  delete s.$schema;
  return { ...s, type: 'object', properties: (s.properties as JsonSchema['properties'] | undefined) ?? {} };
}

export function mcpTools(saved: SavedMcpServer, conn: McpConnection, config: ServerConfig): Tool[] {
  return saved.tools.map((t) => {
    const lookup = config.lookup?.[t.name];
    const retention = config.keyRetentionMs;
    const tool: Tool<Args> = {
      name: t.as,
      description: `[MCP server "${saved.server}"] ${t.description ?? t.name}`,
      args: argsSchema(t.inputSchema),
      inputSchema: jsonSchemaOf(t),
      readOnly: t.readOnly,
      idempotent: t.idempotent,
      async run(args: Args, ctx: ToolContext): Promise<ToolOutput> {
        return outputOf(await conn.call(t.name, args, ctx.key !== undefined ? { [IDEMPOTENCY_META_KEY]: ctx.key } : undefined, ctx.signal));
      },
      describe: (args: Args) => ({ title: `${qualifiedName(saved.server, t.name)} (MCP)`, detail: JSON.stringify(args, null, 2) }),
    };
    if (!t.readOnly)
      tool.keyed = {
        retention: async () => {
          if (retention === undefined) throw new Error(`MCP server "${saved.server}" is not configured as honouring idempotency keys (keyRetentionMs)`);
          return retention;
        },
      };
    if (lookup) tool.lookup = (args: Args, ctx: ToolContext) => runLookup(conn, t.name, lookup, args, ctx);
    qualified.set(tool as Tool, qualifiedName(saved.server, t.name));
    return tool as Tool;
  });
}
