/**
 * The MCP servers a run started in the editor may use, in the shape of VS Code's mcp.json
 * `servers` object: the user setting durableTriage.mcp.servers (user-only: a server is a command
 * the editor runs), and the workspace's .vscode/mcp.json once the user allowed that exact file
 * (logic/mcp-consent.ts). VS Code's variables are filled in here: `${workspaceFolder}`,
 * `${userHome}` and `${env:NAME}` anywhere in a server's entry; `${input:ID}` (which VS Code
 * prompts for) and any other `${...}` are refused with the variable named, before anything starts.
 */
import { BadInputError } from '../../core/errors';
import { parseMcpConfig, type McpConfig, type ServerConfig } from '../../mcp/config';

export const MCP_SERVERS_SETTING = 'mcp.servers';
/** How the setting is named in messages (the "file" of its McpConfig). */
export const MCP_SETTING_LABEL = 'durableTriage.mcp.servers (user settings)';

/** Where a set of servers comes from: the setting, or a workspace's mcp.json (its path). */
export interface McpSource {
  label: string;
  servers: Record<string, unknown>;
}

/** What the variables are filled in with. */
export interface McpVariables {
  env: NodeJS.ProcessEnv;
  userHome: string;
  /** The workspace folder; undefined with none open (then `${workspaceFolder}` is refused). */
  workspaceFolder?: string;
}

/** Fields of a server entry that are Durable Triage's own (tool names, lookup templates): left as written. */
const OWN_FIELDS: ReadonlySet<string> = new Set(['readOnly', 'idempotent', 'mutating', 'lookup', 'timeoutMs', 'keyRetentionMs']);

/**
 * One McpConfig of the sources, each checked on its own (an error names the setting or the file
 * and the server); a server name in two sources is refused (it names its tools). With no server
 * anywhere: no servers (a new run uses none; a resumed run that used some says which is missing).
 */
export function mcpConfigOf(sources: readonly McpSource[], vars: McpVariables): McpConfig {
  const servers: Record<string, ServerConfig> = {};
  const from = new Map<string, string>();
  const used: string[] = [];
  for (const s of sources) {
    const names = Object.keys(s.servers);
    if (names.length === 0) continue;
    const filled = Object.fromEntries(names.map((n) => [n, fillServer(s.servers[n], n, s.label, vars)]));
    const parsed = parseMcpConfig({ servers: filled }, s.label, vars.env);
    for (const [name, server] of Object.entries(parsed.servers)) {
      const other = from.get(name);
      if (other !== undefined)
        throw new BadInputError(
          `MCP server "${name}" is configured in both ${other} and ${s.label}; rename one of them (a server's name is part of its tools' names). Nothing was started.`,
        );
      from.set(name, s.label);
      servers[name] = server;
    }
    used.push(s.label);
  }
  return { file: used.length > 0 ? used.join(' and ') : MCP_SETTING_LABEL, servers };
}

/** A server entry with VS Code's variables filled in (not its own fields: see OWN_FIELDS). */
function fillServer(entry: unknown, name: string, label: string, vars: McpVariables): unknown {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry; // parseMcpConfig says what is wrong
  return Object.fromEntries(
    Object.entries(entry as Record<string, unknown>).map(([k, v]) => [k, OWN_FIELDS.has(k) ? v : fillValue(v, `"${k}"`, name, label, vars)]),
  );
}

function fillValue(v: unknown, field: string, name: string, label: string, vars: McpVariables): unknown {
  if (typeof v === 'string') return fillText(v, field, name, label, vars);
  if (Array.isArray(v)) return v.map((x, i) => fillValue(x, `${field}[${i}]`, name, label, vars));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fillValue(x, `${field}.${k}`, name, label, vars)]));
  return v;
}

function fillText(v: string, field: string, name: string, label: string, vars: McpVariables): string {
  const where = `${label}: server "${name}" ${field}`;
  return v.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (inner === 'workspaceFolder') {
      if (vars.workspaceFolder === undefined)
        throw new BadInputError(`${where} uses \${workspaceFolder}, but no folder is open. Open the folder and start again.`);
      return vars.workspaceFolder;
    }
    if (inner === 'userHome') return vars.userHome;
    if (inner.startsWith('env:')) {
      const got = vars.env[inner.slice(4)];
      if (got === undefined)
        throw new BadInputError(
          `${where} uses ${whole}, which is not set in the editor's environment. Set it before the editor starts (or write the value in the entry) and start again.`,
        );
      return got;
    }
    if (inner.startsWith('input:'))
      throw new BadInputError(
        `${where} uses ${whole}, which VS Code would prompt for; Durable Triage does not prompt for MCP inputs. Use \${env:NAME} (set in the editor's environment) or write the value in the entry.`,
      );
    throw new BadInputError(`${where} uses ${whole}, which Durable Triage does not fill in (it fills in \${workspaceFolder}, \${userHome} and \${env:NAME}).`);
  });
}
