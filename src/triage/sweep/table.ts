/**
 * The sweep's table: one row per crash kind, keys setting and number of crashes.
 */
export type SweepKind = 'in-process' | 'sigkill';

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
}

export function emptyRow(kind: SweepKind, keys: boolean, crashes: 1 | 2): SweepRow {
  return { kind, keys, crashes, scenarios: 0, duplicates: 0, paidTwice: 0, questions: 0, unfinished: 0, failing: 0 };
}

const HEAD = ['crash kind', 'keys', 'crashes', 'scenarios', 'duplicates', 'paid twice', 'questions', 'unfinished', 'checks failing'];

export function formatTable(rows: SweepRow[]): string {
  const cells = rows.map((r) => [r.kind, r.keys ? 'on' : 'off', String(r.crashes), String(r.scenarios), String(r.duplicates), String(r.paidTwice), String(r.questions), String(r.unfinished), String(r.failing)]);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]): string => c.map((x, i) => x.padEnd(widths[i])).join('  ').trimEnd();
  return [line(HEAD), ...cells.map(line)].join('\n') + '\n';
}
