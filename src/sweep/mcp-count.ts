/**
 * What an MCP sweep scenario's log shows. The log's lines, in order: `life` (the harness, before
 * each life, with the calls the saved run had begun and not finished), `call` (the tap, as the
 * server receives a tools/call) and `question` (the person, as the ladder asks).
 */
import { LOOKUP_TOOL, MUTATING_TOOLS } from './mcp-job';

type LogLine = { t: 'life'; pending: string[] } | { t: 'call'; tool: string; key: string | null } | { t: 'question'; tool: string };

export interface McpLogCounts {
  pending: number;
  questions: number;
  lookups: number;
  /** Mutating calls the server received more than once. */
  twice: number;
  /** Begun calls sent again after a restart before their lookup or a person was asked. */
  unasked: number;
  /** Mutating calls whose `_meta` key is not as the keys setting says (on: a key, the same one every time; off: none). */
  badKeys: number;
}

export function parseLog(text: string): LogLine[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

export function countMcpLog(lines: LogLine[], keys: boolean): McpLogCounts {
  const c: McpLogCounts = { pending: 0, questions: 0, lookups: 0, twice: 0, unasked: 0, badKeys: 0 };
  const received = new Map<string, number>();
  const firstKey = new Map<string, string | null>();
  // In the current life: the begun calls not yet re-sent, and the tools a question or lookup was asked about.
  let pending = new Set<string>();
  let asked = false;
  const mutating: readonly string[] = MUTATING_TOOLS;
  for (const l of lines) {
    if (l.t === 'life') {
      pending = new Set(l.pending);
      c.pending += l.pending.length;
      asked = false;
    } else if (l.t === 'question') {
      c.questions++;
      asked = true;
    } else if (l.tool === LOOKUP_TOOL) {
      c.lookups++;
      asked = true;
    } else if (mutating.includes(l.tool)) {
      received.set(l.tool, (received.get(l.tool) ?? 0) + 1);
      if (pending.has(l.tool) && !asked) c.unasked++;
      pending.delete(l.tool);
      asked = false;
      if (keys ? typeof l.key !== 'string' || (firstKey.has(l.tool) && firstKey.get(l.tool) !== l.key) : l.key !== null) c.badKeys++;
      if (!firstKey.has(l.tool)) firstKey.set(l.tool, l.key);
    }
  }
  for (const n of received.values()) c.twice += Math.max(0, n - 1);
  return c;
}
