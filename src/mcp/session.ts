/**
 * The MCP servers of one run, for one process: connected at the run's start or resume. A new run
 * lists each server's tools and saves them with its config (`config.mcp`); a resumed run
 * connects to the same servers, checks that they still list the saved tools (a server that is
 * gone will not start: McpServerError; changed tools: McpToolsChangedError) and offers the
 * model exactly the saved tools.
 */
import { BadInputError, McpToolsChangedError } from '../core/errors';
import type { Tool } from '../agent/tool';
import type { SavedMcpServer } from '../store/saved-mcp';
import type { McpConfig, ServerConfig } from './config';
import { McpConnection, type ConnectOptions } from './connection';
import { saveTools, toolChanges } from './saved';
import { mcpTools } from './tools';

export class McpSession {
  private constructor(
    private readonly config: McpConfig,
    private readonly conns: Map<string, McpConnection>,
    /** The tools as saved with the run. */
    readonly saved: SavedMcpServer[],
  ) {}

  /** A new run: connect to every server and list its tools (to be saved with the run). */
  static async start(config: McpConfig, o: ConnectOptions = {}): Promise<McpSession> {
    const conns = new Map<string, McpConnection>();
    const saved: SavedMcpServer[] = [];
    try {
      for (const [name, server] of Object.entries(config.servers)) {
        const c = await McpConnection.open(name, server, o);
        conns.set(name, c);
        saved.push(saveTools(name, server, await c.listTools(o.startTimeoutMs), config.file));
      }
      assertUniqueNames(saved);
      return new McpSession(config, conns, saved);
    } catch (e) {
      await Promise.all([...conns.values()].map((c) => c.close()));
      throw e;
    }
  }

  /** A resumed run: connect to the saved servers and check they list the saved tools. */
  static async resume(runId: string, config: McpConfig, saved: SavedMcpServer[], o: ConnectOptions = {}): Promise<McpSession> {
    const conns = new Map<string, McpConnection>();
    try {
      for (const s of saved) {
        const server = config.servers[s.server];
        if (!server)
          throw new BadInputError(
            `Run ${runId} uses MCP server "${s.server}", which the MCP configuration ${config.file} no longer has. Put it back in the file (the same server) and resume.`,
          );
        const c = await McpConnection.open(s.server, server, o);
        conns.set(s.server, c);
        const changes = toolChanges(s, await c.listTools(o.startTimeoutMs));
        if (changes.length > 0) throw new McpToolsChangedError(runId, s.server, changes);
      }
      return new McpSession(config, conns, saved);
    } catch (e) {
      await Promise.all([...conns.values()].map((c) => c.close()));
      throw e;
    }
  }

  /** The saved tools as the agent's Tools. */
  tools(): Tool[] {
    return this.saved.flatMap((s) => mcpTools(s, this.conns.get(s.server)!, this.config.servers[s.server]));
  }

  /** A connected server and its configuration (the MCP tracker files through it); undefined when the run does not use it. */
  server(name: string): { connection: McpConnection; config: ServerConfig; file: string } | undefined {
    const connection = this.conns.get(name);
    const config = this.config.servers[name];
    return connection && config ? { connection, config, file: this.config.file } : undefined;
  }

  async close(): Promise<void> {
    await Promise.all([...this.conns.values()].map((c) => c.close()));
  }
}

function assertUniqueNames(saved: SavedMcpServer[]): void {
  const seen = new Set<string>();
  for (const s of saved)
    for (const t of s.tools) {
      if (seen.has(t.as)) throw new BadInputError(`Two MCP tools would both be called ${t.as}; rename one of the servers in the --mcp file.`);
      seen.add(t.as);
    }
}
