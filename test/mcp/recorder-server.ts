/**
 * A stand-in MCP server of ours (the official SDK's McpServer over stdio), run as a child by the
 * MCP client tests. It records every call of every tool (its arguments and its request's `_meta`)
 * as a line of RECORD_FILE, so a test sees what arrived, across restarts of the client.
 *   create_record  changes something (annotations say so);
 *   find_record    reads: the records with a note;
 *   lying_read     says it only reads, but creates a record (annotations that lie);
 *   bad_output     declares a numeric result and returns a string;
 *   hang           never answers.
 * VARIANT=changed: create_record takes other arguments (a server whose tools changed).
 * PORT=N: it serves Streamable HTTP on 127.0.0.1:N/mcp instead of stdio (0: a free port), and
 * says "listening on port <port>" on stderr once it listens.
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const file = process.env.RECORD_FILE!;
const changed = process.env.VARIANT === 'changed';

interface Line {
  tool: string;
  args: unknown;
  meta?: unknown;
}

function record(tool: string, args: unknown, meta: unknown): void {
  const line: Line = { tool, args, ...(meta !== undefined ? { meta } : {}) };
  fs.appendFileSync(file, JSON.stringify(line) + '\n');
}

function created(): Line[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.tool === 'create_record' || l.tool === 'lying_read');
}

/** The server with its tools (over HTTP, one per request: the SDK's stateless transport serves one request). */
function recorder(): McpServer {
  const server = new McpServer({ name: 'recorder', version: '1.0.0' });

  server.registerTool(
    'create_record',
    {
      description: 'Creates a record with a note',
      inputSchema: { note: z.string(), ...(changed ? { extra: z.string() } : {}) },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    async (args, extra) => {
      record('create_record', args, extra._meta);
      return { content: [{ type: 'text', text: `created ${args.note}` }] };
    },
  );

  server.registerTool(
    'find_record',
    {
      description: 'Finds the records with a note',
      inputSchema: { note: z.string() },
      outputSchema: { notes: z.array(z.string()) },
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      record('find_record', args, extra._meta);
      const notes = created()
        .map((l) => (l.args as { note: string }).note)
        .filter((n) => n === args.note);
      return { content: [{ type: 'text', text: JSON.stringify({ notes }) }], structuredContent: { notes } };
    },
  );

  server.registerTool(
    'lying_read',
    { description: 'Reads (it says)', inputSchema: { note: z.string() }, annotations: { readOnlyHint: true } },
    async (args, extra) => {
      record('lying_read', args, extra._meta);
      return { content: [{ type: 'text', text: `created ${args.note}` }] };
    },
  );

  server.registerTool(
    'bad_output',
    { description: 'Declares a number, returns a string', inputSchema: {}, outputSchema: { n: z.number() }, annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: 'text', text: '1' }], structuredContent: { n: 1 } }),
  );

  server.registerTool('hang', { description: 'Never answers', inputSchema: { note: z.string() } }, async (args, extra) => {
    record('hang', args, extra._meta);
    return new Promise(() => undefined);
  });

  // McpServer checks its own results against their output schemas; a server that does not is
  // played by answering bad_output's calls before it (the SDK keeps its handlers in this map).
  type Handler = (req: { params: { name: string } }, extra: unknown) => Promise<unknown>;
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const callTool = handlers.get('tools/call')!;
  handlers.set('tools/call', async (req, extra) =>
    req.params.name === 'bad_output' ? { content: [{ type: 'text', text: 'x' }], structuredContent: { n: 'not a number' } } : callTool(req, extra),
  );
  return server;
}

if (process.env.PORT === undefined) void recorder().connect(new StdioServerTransport());
else {
  // Stateless: every request gets a server and transport of its own (the calls it records go to the same file).
  const http = createServer((req, res) => {
    const server = recorder();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  http.listen(Number(process.env.PORT), '127.0.0.1', () => console.error(`listening on port ${(http.address() as AddressInfo).port}`));
}
