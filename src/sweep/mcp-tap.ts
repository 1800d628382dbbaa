/**
 * The MCP sweep's tap, loaded into the MCP server's own process (`node --require mcp-tap.js
 * SERVER`, with TRIAGE_SWEEP_TAP_LOG naming the log): it sees every message the client sends
 * before the server does and appends each `tools/call` request to the log
 * (`{"t":"call","tool":...,"key":...}`), so the sweep counts the calls the server received from
 * outside the product. Without the variable it does nothing.
 */
import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { IDEMPOTENCY_META_KEY } from '../mcp/names';
import { TAP_LOG_ENV } from './mcp-tap-env';

interface Request {
  method?: string;
  params?: { name?: string; _meta?: Record<string, unknown> };
}

function note(log: string, line: string): void {
  let m: Request | undefined;
  try {
    m = JSON.parse(line) as Request;
  } catch {
    return;
  }
  if (m?.method === 'tools/call')
    fs.appendFileSync(log, JSON.stringify({ t: 'call', tool: m.params?.name, key: m.params?._meta?.[IDEMPOTENCY_META_KEY] ?? null }) + '\n');
}

const log = process.env[TAP_LOG_ENV];
if (log) {
  // The server reads its standard input through 'data' events (the SDK's stdio transport): each
  // chunk passes here first, and its whole lines (one JSON-RPC message each) are logged.
  const stdin = process.stdin as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
  const emit = stdin.emit.bind(stdin);
  const decoder = new StringDecoder('utf8');
  let pending = '';
  stdin.emit = (event, ...args) => {
    if (event === 'data') {
      const chunk = args[0];
      pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        note(log, pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
    }
    return emit(event, ...args);
  };
}
