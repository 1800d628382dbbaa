/**
 * The `--mcp CONFIG` file: the MCP servers a run may use, in the shape VS Code's mcp.json uses
 * (`{"servers": {"name": {"type": "stdio", "command", "args", "env"} | {"type": "http", "url",
 * "headers"}}}`), plus what the run needs to know that a server's annotations may get wrong or
 * cannot say: `readOnly` / `idempotent` (tool names that override the annotations), `lookup`
 * (how to ask the server whether a mutating call happened), `timeoutMs` (per call) and `tracker`
 * (tracker-config.ts: how `--tracker mcp:SERVER` files issues through its tools).
 * `${env:NAME}` in `env`, `headers` and `url` is the environment variable NAME of the process
 * that reads the file (so secrets need not be written in it; they are never saved with a run).
 */
import * as fs from 'node:fs/promises';
import { z } from 'zod';
import { BadInputError } from '../core/errors';
import { keyedRecord, parseSchema, pathText, SchemaError } from '../core/schema';
import { McpTrackerSchema } from './tracker-config';

/** A call that does not answer within this (ms) stops the run (McpServerError `timeout`). */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** A server that has not answered `initialize` and `tools/list` within this (ms) will not start. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;

/**
 * How to ask the server whether a call of `<tool>` happened: call `tool` (a read-only tool of
 * the same server) with `args`, a template whose `{path}` strings are taken from the call's
 * arguments (`{entities.0.name}`) or are its idempotency key (`{key}`); the call happened when
 * `found` holds: the result's JSON (structured content, else its text parsed) has `equals` at
 * `path`, or its text `contains` the string. Anything else the lookup cannot read is "unsure".
 */
export const LookupSchema = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  found: z.union([z.strictObject({ path: z.string().min(1), equals: z.unknown() }), z.strictObject({ contains: z.string().min(1) })]),
});
export type LookupConfig = z.infer<typeof LookupSchema>;

const Overrides = {
  /** Tools treated as read-only whatever their annotations say (they run freely, no marker). */
  readOnly: z.array(z.string()).optional(),
  /** Tools treated as idempotent whatever their annotations say (after a crash they simply run again). */
  idempotent: z.array(z.string()).optional(),
  /** Tools that change something although their annotations say read-only or idempotent (annotations that lie). */
  mutating: z.array(z.string()).optional(),
  lookup: keyedRecord(LookupSchema).optional(),
  timeoutMs: z.number().int().positive().optional(),
  /**
   * Set only when the server honours the idempotency key it is sent in `_meta`: how long (ms) it
   * keeps one. Then a mutating call interrupted by a crash is simply sent again with the same key
   * (the ladder's first step) while the key is kept; without it, the key is still sent but not relied on.
   */
  keyRetentionMs: z.number().int().positive().optional(),
  /** How a run with `--tracker mcp:<this server>` files and finds issues through its tools (tracker-config.ts). */
  tracker: McpTrackerSchema.optional(),
};

const StdioSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  envFile: z.string().optional(),
  ...Overrides,
});

const HttpSchema = z.strictObject({
  type: z.literal('http'),
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).optional(),
  ...Overrides,
});

export type StdioServerConfig = z.infer<typeof StdioSchema>;
export type HttpServerConfig = z.infer<typeof HttpSchema>;
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** VS Code's file may also hold `inputs` (prompted variables): accepted, but `${input:...}` is refused where it is used. */
export const McpConfigSchema = z.looseObject({
  servers: keyedRecord(z.looseObject({ type: z.string().optional() })),
});

export interface McpConfig {
  /** Absolute path of the file. */
  file: string;
  servers: Record<string, ServerConfig>;
}

const NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** Reads and checks the file; every problem is a BadInputError naming the file and the field. */
export async function readMcpConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<McpConfig> {
  return mcpConfigFromText(await readMcpConfigText(file), file, env);
}

/** The file's text, as written (`${env:NAME}` unresolved: what a queued run carries). */
export async function readMcpConfigText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new BadInputError(
      `The MCP configuration ${file} cannot be read (${(e as Error).message}). Give --mcp the path of a JSON file such as .vscode/mcp.json.`,
    );
  }
}

/** The configuration a text holds (`file`: what messages call it); `env` fills `${env:NAME}` (null: they are left as written, only checked). */
export function mcpConfigFromText(text: string, file: string, env: NodeJS.ProcessEnv | null = process.env): McpConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`The MCP configuration ${file} is not JSON: ${(e as Error).message}.`);
  }
  return parseMcpConfig(raw, file, env);
}

export function parseMcpConfig(raw: unknown, file: string, env: NodeJS.ProcessEnv | null = process.env): McpConfig {
  let parsed: z.infer<typeof McpConfigSchema>;
  try {
    parsed = parseSchema(McpConfigSchema, raw, '$');
  } catch (e) {
    if (e instanceof SchemaError) throw new BadInputError(`The MCP configuration ${file} is not valid: ${e.message}. Nothing was started.`);
    throw e;
  }
  const servers: Record<string, ServerConfig> = {};
  for (const [name, raw] of Object.entries(parsed.servers)) {
    if (!NAME.test(name))
      throw new BadInputError(
        `The MCP configuration ${file} names a server "${name}": use 1 to 32 letters, digits, "_" or "-" (the name becomes part of its tools' names).`,
      );
    const type = raw.type ?? ('url' in raw ? 'http' : 'stdio');
    if (type !== 'stdio' && type !== 'http')
      throw new BadInputError(`The MCP configuration ${file}: server "${name}" has type "${type}"; triage speaks "stdio" and "http" (Streamable HTTP).`);
    let server: ServerConfig;
    try {
      server = type === 'http' ? parseSchema(HttpSchema, raw, '$') : parseSchema(StdioSchema, raw, '$');
    } catch (e) {
      if (e instanceof SchemaError)
        throw new BadInputError(
          `The MCP configuration ${file} is not valid (server "${name}"): ${e.message.replace('"$', `"$.servers${pathKey(name)}`)}. Nothing was started.`,
        );
      throw e;
    }
    if ('envFile' in server && server.envFile !== undefined)
      throw new BadInputError(
        `The MCP configuration ${file}: server "${name}" has "envFile", which triage does not read; put the variables in "env" (with \${env:NAME}).`,
      );
    servers[name] = expand(server, name, file, env);
  }
  return { file, servers };
}

/** `${env:NAME}` filled in (`env` null: left as written); `${input:...}` (prompted by VS Code) refused. */
function expand(server: ServerConfig, name: string, file: string, env: NodeJS.ProcessEnv | null): ServerConfig {
  const fill = (v: string, field: string): string =>
    v.replace(/\$\{(env|input):([^}]*)\}/g, (_m, kind: string, key: string) => {
      if (kind === 'input')
        throw new BadInputError(
          `The MCP configuration ${file}: server "${name}" ${field} uses \${input:${key}}, which only VS Code can ask for; use \${env:NAME} instead.`,
        );
      if (env === null) return `\${env:${key}}`;
      const got = env[key];
      if (got === undefined) throw new BadInputError(`The MCP configuration ${file}: server "${name}" ${field} uses \${env:${key}}, which is not set.`);
      return got;
    });
  const map = (m: Record<string, string> | undefined, field: string): Record<string, string> | undefined =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fill(v, `${field}.${k}`)]));
  if ('url' in server) return { ...server, url: fill(server.url, 'url'), ...(server.headers ? { headers: map(server.headers, 'headers')! } : {}) };
  return { ...server, ...(server.env ? { env: map(server.env, 'env')! } : {}) };
}

function pathKey(name: string): string {
  return pathText('', [name]).replace(/^(?=[A-Za-z_$])/, '.');
}
