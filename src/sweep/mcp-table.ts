/**
 * The MCP sweep's table (test/data/sweep-mcp.txt): one row per configuration (a lookup for create_entities
 * or none), crash kind, keys setting and number of crashes.
 */
import { alignColumns } from './table';

export type McpSweepKind = 'in-process' | 'sigkill';

export interface McpSweepRow {
  lookup: boolean;
  kind: McpSweepKind;
  keys: boolean;
  crashes: 1 | 2;
  scenarios: number;
  /** Restarts that found a mutating call begun (attempt marker saved) and its result not saved: the crash landed between the call and its saved result. */
  pending: number;
  /** Questions the ladder put to the person. */
  questions: number;
  /** Calls of the lookup tool the server received (the script never calls it itself). */
  lookups: number;
  /** The entity, or one of its observations, in the server's memory file more than once. */
  duplicates: number;
  /** A mutating call the server received more than once (counted by the tap). */
  twice: number;
  /** After a restart, a begun mutating call sent again with neither its lookup nor a person asked first. */
  unasked: number;
  /** Runs that did not reach done. */
  unfinished: number;
  /** Scenarios where a restart stopped with an error instead of going on. */
  blocked: number;
  /** Scenarios with a failing check: the memory holds the entity once with its observation; keys sent in `_meta` exactly when on. */
  failing: number;
  /** What went wrong in the first few scenarios that failed or were blocked (not in the table). */
  notes: string[];
}

export function emptyMcpRow(lookup: boolean, kind: McpSweepKind, keys: boolean, crashes: 1 | 2): McpSweepRow {
  return {
    lookup,
    kind,
    keys,
    crashes,
    scenarios: 0,
    pending: 0,
    questions: 0,
    lookups: 0,
    duplicates: 0,
    twice: 0,
    unasked: 0,
    unfinished: 0,
    blocked: 0,
    failing: 0,
    notes: [],
  };
}

/** How one scenario ended. */
export interface McpScenarioOutcome {
  finished: boolean;
  pending: number;
  questions: number;
  lookups: number;
  duplicates: number;
  twice: number;
  unasked: number;
  failedChecks: string[];
  blocked?: string;
  where: string;
}

const MAX_NOTES = 5;

export function addMcpOutcome(row: McpSweepRow, o: McpScenarioOutcome): void {
  row.scenarios++;
  row.pending += o.pending;
  row.questions += o.questions;
  row.lookups += o.lookups;
  row.duplicates += o.duplicates;
  row.twice += o.twice;
  row.unasked += o.unasked;
  if (!o.finished) row.unfinished++;
  if (o.blocked !== undefined) row.blocked++;
  if (o.failedChecks.length) row.failing++;
  const bad = o.blocked !== undefined || o.failedChecks.length > 0 || o.twice > 0 || o.unasked > 0 || o.duplicates > 0;
  if (bad && row.notes.length < MAX_NOTES) {
    const what = [
      ...(o.blocked !== undefined ? [`blocked: ${o.blocked}`] : []),
      ...o.failedChecks,
      ...(o.twice ? [`${o.twice} call(s) twice`] : []),
      ...(o.unasked ? [`${o.unasked} call(s) unasked`] : []),
      ...(o.duplicates ? [`${o.duplicates} duplicate(s)`] : []),
    ];
    row.notes.push(`${o.where}: ${what.join('; ')}`);
  }
}

const HEAD = [
  'lookup',
  'crash kind',
  'keys',
  'crashes',
  'scenarios',
  'pending',
  'questions',
  'lookups',
  'duplicates',
  'twice',
  'unasked',
  'unfinished',
  'blocked',
  'checks failing',
];

export function formatMcpTable(rows: McpSweepRow[]): string {
  const cells = rows.map((r) => [
    r.lookup ? 'open_nodes' : 'none',
    r.kind,
    r.keys ? 'on' : 'off',
    String(r.crashes),
    String(r.scenarios),
    String(r.pending),
    String(r.questions),
    String(r.lookups),
    String(r.duplicates),
    String(r.twice),
    String(r.unasked),
    String(r.unfinished),
    String(r.blocked),
    String(r.failing),
  ]);
  return alignColumns(HEAD, cells).join('\n') + '\n';
}

export function mcpSweepNotes(rows: McpSweepRow[]): string {
  return rows
    .flatMap((r) => r.notes.map((n) => `${r.lookup ? 'lookup' : 'no lookup'} ${r.kind} keys ${r.keys ? 'on' : 'off'} (${r.crashes}): ${n}`))
    .join('\n');
}
