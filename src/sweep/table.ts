/**
 * The sweep's table: one row per crash kind, keys setting and number of crashes.
 */
export type SweepKind = 'in-process' | 'sigkill' | 'power-undo' | 'power-keep' | 'pg-in-process' | 'pg-sigkill';

export interface SweepRow {
  kind: SweepKind;
  keys: boolean;
  crashes: 1 | 2;
  scenarios: number;
  /** An issue filed twice, or a patch applied twice. */
  duplicates: number;
  /** A model reply requested again after it had been saved. */
  paidTwice: number;
  /** Questions the ladder put to the person. */
  questions: number;
  /** Runs that did not reach done. */
  unfinished: number;
  /** Scenarios with at least one failing check. */
  failing: number;
  /** Scenarios where something acknowledged before a crash (a run's creation, a save, a blob the ledger names) was missing after it. */
  ackLost: number;
  /** Scenarios where a restart stopped with an error (workspace changed, corrupt checkpoint, a lock taken for live...) instead of going on. */
  blocked: number;
  /** Scenarios where a run whose creation returned was gone after the crash. */
  lostRuns: number;
  /** What went wrong in the first few scenarios that lost something or were blocked (not in the table). */
  notes: string[];
}

export function emptyRow(kind: SweepKind, keys: boolean, crashes: 1 | 2): SweepRow {
  return {
    kind,
    keys,
    crashes,
    scenarios: 0,
    duplicates: 0,
    paidTwice: 0,
    questions: 0,
    unfinished: 0,
    failing: 0,
    ackLost: 0,
    blocked: 0,
    lostRuns: 0,
    notes: [],
  };
}

/** How one scenario ended, whatever the crash kind. */
export interface ScenarioOutcome {
  finished: boolean;
  duplicates: number;
  paidTwice: number;
  questions: number;
  failedChecks: string[];
  ackLost: boolean;
  runLost: boolean;
  /** The error a restart stopped with, when one did. */
  blocked?: string;
  /** Where the scenario crashed, for the notes. */
  where: string;
}

const MAX_NOTES = 5;

export function addOutcome(row: SweepRow, o: ScenarioOutcome): void {
  row.scenarios++;
  row.duplicates += o.duplicates;
  row.paidTwice += o.paidTwice;
  row.questions += o.questions;
  if (!o.finished) row.unfinished++;
  if (o.failedChecks.length) row.failing++;
  if (o.ackLost) row.ackLost++;
  if (o.runLost) row.lostRuns++;
  if (o.blocked !== undefined) row.blocked++;
  if ((o.ackLost || o.blocked !== undefined) && row.notes.length < MAX_NOTES) {
    row.notes.push(
      `${o.where}: ${o.blocked !== undefined ? `blocked: ${o.blocked}` : o.runLost ? 'the run was lost' : 'an acknowledged save or blob was lost'}`,
    );
  }
}

const HEAD = [
  'crash kind',
  'keys',
  'crashes',
  'scenarios',
  'duplicates',
  'paid twice',
  'questions',
  'unfinished',
  'checks failing',
  'acked lost',
  'blocked',
  'lost runs',
];

export function formatTable(rows: SweepRow[]): string {
  const cells = rows.map((r) => [
    r.kind,
    r.keys ? 'on' : 'off',
    String(r.crashes),
    String(r.scenarios),
    String(r.duplicates),
    String(r.paidTwice),
    String(r.questions),
    String(r.unfinished),
    String(r.failing),
    String(r.ackLost),
    String(r.blocked),
    String(r.lostRuns),
  ]);
  return alignColumns(HEAD, cells).join('\n') + '\n';
}

/** A text table's lines: the head, then each row, every column padded to its widest cell and two spaces apart (no trailing spaces). */
export function alignColumns(head: readonly string[], cells: readonly string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: readonly string[]): string =>
    c
      .map((x, i) => x.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), ...cells.map(line)];
}
