/**
 * The Undo picker's rows: each run that wrote files, marked by where its files stand now, so a
 * run already undone says so (and is listed after the runs there is still something to undo in).
 */
import type { RunFileStatus } from '../../workspace/undo';

/** How much of a run's changes are undone now. */
export type UndoStanding = 'nothing-undone' | 'partly-undone' | 'undone';

/** From the statuses of the files the run wrote (as-written, changed, missing, undone). */
export function undoStanding(statuses: readonly RunFileStatus[]): UndoStanding {
  const undone = statuses.filter((s) => s === 'undone').length;
  if (statuses.length > 0 && undone === statuses.length) return 'undone';
  return undone > 0 ? 'partly-undone' : 'nothing-undone';
}

/** The words put first in the picker's description: "undone already · " and the like; '' when nothing is undone. */
export function undoMark(statuses: readonly RunFileStatus[]): string {
  const s = undoStanding(statuses);
  if (s === 'undone') return 'undone already · ';
  if (s === 'partly-undone') return `${statuses.filter((x) => x === 'undone').length} of ${statuses.length} files undone · `;
  return '';
}

/** The picker's order: runs with something to undo first, runs undone already last (otherwise as given). */
export function undoPickOrder<T>(rows: readonly T[], statuses: (row: T) => readonly RunFileStatus[]): T[] {
  const rank = (r: T): number => (undoStanding(statuses(r)) === 'undone' ? 1 : 0);
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map((x) => x.r);
}
