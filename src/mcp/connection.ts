/**
 * One MCP server, connected through the official SDK (stdio: a child process; http: Streamable
 * HTTP). What can go wrong with the server itself is an McpServerError naming it: it will not
 * start (with the command line and the last lines it wrote to stderr), it went away (an HTTP
 * server that no longer accepts connections too), or a call
 * did not answer within its timeout. A tool's own failure is the tool's business (an error result).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { McpServerError } from '../core/errors';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS, type ServerConfig } from './config';

export interface ConnectOptions {
  startTimeoutMs?: number;
  /** Where a stdio server's working folder defaults to. */
  cwd?: string;
}

const STDERR_KEPT = 2000;

export class McpConnection {
  private closed = false;
  private constructor(
    readonly name: string,
    private readonly client: Client,
    private readonly config: ServerConfig,
    private readonly stderr: () => string,
  ) {}

  /** Connects and initializes; a server that does not come up is McpServerError `start`. */
  static async open(name: string, config: ServerConfig, o: ConnectOptions = {}): Promise<McpConnection> {
    let err = '';
    let transport: Transport;
    if ('url' in config) {
      transport = new StreamableHTTPClientTransport(new URL(config.url), config.headers ? { requestInit: { headers: config.headers } } : undefined);
    } else {
      const t = new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...config.env },
        stderr: 'pipe',
        ...((config.cwd ?? o.cwd) ? { cwd: config.cwd ?? o.cwd } : {}),
      });
      t.stderr?.on('data', (d: Buffer) => {
        err = (err + d.toString('utf8')).slice(-STDERR_KEPT);
      });
      transport = t;
    }
    const client = new Client({ name: 'durable-triage', version: '1' });
    const conn = new McpConnection(name, client, config, () => err.trim());
    const timeout = o.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    try {
      await client.connect(transport, { timeout });
    } catch (e) {
      await client.close().catch(() => undefined);
      throw new McpServerError(
        name,
        'start',
        `will not start: ${conn.what()} ${startFailure(e, timeout)}${conn.stderrNote()}. Check the server's entry in the --mcp file.`,
      );
    }
    client.onclose = () => {
      conn.closed = true;
    };
    return conn;
  }

  /** `command args` or the URL, for messages. */
  what(): string {
    return 'url' in this.config ? `(${this.config.url})` : `(command: ${[this.config.command, ...(this.config.args ?? [])].join(' ')})`;
  }

  private stderrNote(): string {
    const s = this.stderr();
    return s ? `; it wrote: ${s.split('\n').slice(-5).join(' | ')}` : '';
  }

  /** Every tool the server lists (all pages). */
  async listTools(timeoutMs = DEFAULT_START_TIMEOUT_MS): Promise<McpTool[]> {
    const out: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.guard('listing its tools', timeoutMs, () => this.client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs }));
      out.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  /**
   * Calls a tool with `meta` as the request's `_meta` (never inside the arguments). The SDK
   * checks a result against the tool's declared output schema (a mismatch throws, and becomes
   * the call's error result in the loop).
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    signal: AbortSignal,
    timeoutMs?: number,
  ): Promise<CallToolResult> {
    const t = timeoutMs ?? this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const r = await this.guard(`calling ${tool}`, t, () =>
      this.client.callTool({ name: tool, arguments: args, ...(meta ? { _meta: meta } : {}) }, undefined, { timeout: t, signal }),
    );
    return r as CallToolResult;
  }

  private async guard<T>(doing: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
    if (this.closed)
      throw new McpServerError(
        this.name,
        'gone',
        `${this.what()} is no longer running (it stopped before ${doing})${this.stderrNote()}. Its call was saved with its attempt marker; resume once the server runs again.`,
      );
    try {
      return await work();
    } catch (e) {
      if (e instanceof McpError && e.code === (ErrorCode.RequestTimeout as number))
        throw new McpServerError(
          this.name,
          'timeout',
          `${this.what()} did not answer within ${timeoutMs} ms while ${doing}. The run stopped and was saved; a resume asks whether the call happened (its lookup, or you). Raise "timeoutMs" for the server if it is just slow.`,
        );
      if (this.closed || (e instanceof McpError && e.code === (ErrorCode.ConnectionClosed as number)))
        throw new McpServerError(
          this.name,
          'gone',
          `${this.what()} went away while ${doing}${this.stderrNote()}. The run stopped and was saved; resume once the server runs again.`,
        );
      const unreachable = 'url' in this.config ? networkFailure(e) : undefined;
      if (unreachable !== undefined)
        throw new McpServerError(
          this.name,
          'gone',
          `${this.what()} went away while ${doing} (${unreachable}). The run stopped and was saved; resume once the server answers at its URL again.`,
        );
      throw e;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close().catch(() => undefined);
  }
}

/**
 * Why an HTTP request reached no server (fetch's "fetch failed" with the socket's error code:
 * refused, reset, no such host...), or undefined for anything else (a tool's own failure).
 */
function networkFailure(e: unknown): string | undefined {
  if (!(e instanceof TypeError) || e.message !== 'fetch failed') return undefined;
  const cause = (e as TypeError & { cause?: { code?: unknown; message?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : 'no answer';
}

function startFailure(e: unknown, timeout: number): string {
  if (e instanceof McpError && e.code === (ErrorCode.RequestTimeout as number)) return `did not answer within ${timeout} ms`;
  return `failed: ${e instanceof Error ? e.message : String(e)}`;
}
