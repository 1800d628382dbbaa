/**
 * The effects sweep's table (test/data/sweep-effects.txt): the crash sweep's columns
 * (src/sweep/table.ts), with the duplicates split by side effect: issues, commits (on the branch,
 * local or pushed), pull requests, Sentry comments.
 */
import { addOutcome, alignColumns, emptyRow, type ScenarioOutcome, type SweepKind, type SweepRow } from '../../../src/sweep/table';
import type { EffectCounts } from './world';

export interface EffectsRow extends SweepRow {
  /** Duplicates by side effect. */
  extra: EffectCounts;
}

export function emptyEffectsRow(kind: SweepKind, keys: boolean, crashes: 1 | 2): EffectsRow {
  return { ...emptyRow(kind, keys, crashes), extra: { issues: 0, commits: 0, pulls: 0, comments: 0 } };
}

export function addEffects(row: EffectsRow, o: ScenarioOutcome & { extra: EffectCounts }): void {
  addOutcome(row, o);
  row.extra.issues += o.extra.issues;
  row.extra.commits += o.extra.commits;
  row.extra.pulls += o.extra.pulls;
  row.extra.comments += o.extra.comments;
  const bad = o.duplicates > 0 || o.failedChecks.length > 0 || !o.finished;
  if (bad && o.blocked === undefined && !o.ackLost && row.notes.length < 5) row.notes.push(`${o.where}: ${o.duplicates} duplicates`);
}

const HEAD = [
  'crash kind',
  'keys',
  'crashes',
  'scenarios',
  'duplicates',
  'issues',
  'commits',
  'PRs',
  'comments',
  'paid twice',
  'questions',
  'unfinished',
  'checks failing',
  'acked lost',
  'blocked',
  'lost runs',
];

/** The table, then a line per `notes` entry (which points the rows crashed at). */
export function formatEffectsTable(rows: EffectsRow[], notes: string[] = []): string {
  const cells = rows.map((r) => [
    r.kind,
    r.keys ? 'on' : 'off',
    String(r.crashes),
    String(r.scenarios),
    String(r.duplicates),
    String(r.extra.issues),
    String(r.extra.commits),
    String(r.extra.pulls),
    String(r.extra.comments),
    String(r.paidTwice),
    String(r.questions),
    String(r.unfinished),
    String(r.failing),
    String(r.ackLost),
    String(r.blocked),
    String(r.lostRuns),
  ]);
  return [...alignColumns(HEAD, cells), ...(notes.length ? ['', ...notes] : [])].join('\n') + '\n';
}
