/**
 * The checks a task is judged by, as data: their names are known before a run (the
 * catalog lists them, the CLI counts them) and checks.ts judges exactly this list, in
 * this order.
 */

export type GlobalCheckKind = 'run-done' | 'suite-passes' | 'no-duplicate-issues' | 'answer-names-issues' | 'ledger-matches' | 'originals-untouched';
export type GroupCheckKind = 'one-issue' | 'issue-cites-report' | 'test-written' | 'test-fails-before' | 'test-passes-after' | 'fix-changes-file';

export type CheckDef = { kind: GlobalCheckKind; name: string } | { kind: GroupCheckKind; name: string; cause: string };

interface GroupLike {
  cause: string;
  file: string;
}

const GLOBAL: [GlobalCheckKind, string][] = [
  ['run-done', 'the run is done with an answer'],
  ['suite-passes', 'the whole test suite passes'],
  ['no-duplicate-issues', 'no duplicate issues'],
  ['answer-names-issues', 'the answer names every issue'],
  ['ledger-matches', 'every written file is in the ledger and matches it'],
  ['originals-untouched', 'crash reports and existing tests untouched'],
];

function groupChecks(g: GroupLike): CheckDef[] {
  const c = g.cause;
  return [
    { kind: 'one-issue', cause: c, name: `${c}: exactly one issue filed` },
    { kind: 'issue-cites-report', cause: c, name: `${c}: the issue cites a crash report` },
    { kind: 'test-written', cause: c, name: `${c}: regression test written` },
    { kind: 'test-fails-before', cause: c, name: `${c}: regression test fails on the original code` },
    { kind: 'test-passes-after', cause: c, name: `${c}: regression test passes after the fix` },
    { kind: 'fix-changes-file', cause: c, name: `${c}: the fix changes ${g.file}` },
  ];
}

export function checkList(groups: GroupLike[]): CheckDef[] {
  const first = GLOBAL.slice(0, 1).map(([kind, name]) => ({ kind, name }));
  const rest = GLOBAL.slice(1).map(([kind, name]) => ({ kind, name }));
  return [...first, ...groups.flatMap(groupChecks), ...rest];
}
