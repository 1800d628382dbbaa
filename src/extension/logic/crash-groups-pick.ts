/**
 * Start Triage on a crash folder (or a Sentry project) shows its crash groups before starting. A group's row opens
 * what can be done with it: see its reports, leave it out of the run, or take it back in. The
 * Start row counts only the groups kept.
 */
import type { SavedCrashGroup } from '../../store/state';

export const GROUP_ACTIONS = {
  show: 'Show Its Reports',
  openInSentry: 'Open Its Issue in Sentry',
  leaveOut: 'Leave Out of This Run',
  include: 'Include in This Run',
} as const;
export type GroupAction = (typeof GROUP_ACTIONS)[keyof typeof GROUP_ACTIONS];

export interface GroupRow {
  label: string;
  description: string;
  detail: string;
  cause: string;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The Start row: what will be triaged, or (none kept) what to do. */
export function startRow(
  groups: readonly SavedCrashGroup[],
  leftOut: ReadonlySet<string>,
  crashes: string,
): { label: string; detail: string; canStart: boolean } {
  const kept = groups.filter((g) => !leftOut.has(g.cause));
  const reports = kept.reduce((n, g) => n + g.reports.length, 0);
  if (kept.length === 0) return { label: '$(circle-slash) Every group is left out', detail: 'Pick a group below and include it to start', canStart: false };
  const out = leftOut.size > 0 ? ` (${leftOut.size} left out)` : '';
  const events = kept.reduce((n, g) => n + (g.sentry?.count ?? 0), 0);
  return {
    label: `$(play) Start Triage on these ${plural(kept.length, 'crash group')}${out}`,
    detail: crashes.startsWith('sentry:')
      ? `${plural(events, 'event')} in the Sentry project ${crashes.slice('sentry:'.length)}; one issue per group`
      : `${plural(reports, 'report')} in ${crashes}; one issue per group`,
    canStart: true,
  };
}

/** One row per group; a group left out says so. */
export function groupRows(groups: readonly SavedCrashGroup[], leftOut: ReadonlySet<string>): GroupRow[] {
  return groups.map((g) => ({
    label: leftOut.has(g.cause) ? `$(circle-slash) ${g.cause}` : g.cause,
    description: `${g.sentry ? `${plural(g.sentry.count, 'event')}, ${plural(g.sentry.userCount, 'user')}` : plural(g.reports.length, 'report')}${leftOut.has(g.cause) ? ' · left out' : ''}`,
    detail: g.sentry
      ? `${g.signature} · ${g.sentry.title}${g.sentry.lastSeen ? ` · last seen ${g.sentry.lastSeen}` : ''}`
      : `${g.signature} · ${g.reports.join(', ')}`,
    cause: g.cause,
  }));
}

/** What a group's row offers (a Sentry group: its issue in Sentry instead of its reports). */
export function groupActions(cause: string, leftOut: ReadonlySet<string>, sentry = false): GroupAction[] {
  return [sentry ? GROUP_ACTIONS.openInSentry : GROUP_ACTIONS.show, leftOut.has(cause) ? GROUP_ACTIONS.include : GROUP_ACTIONS.leaveOut];
}

/** The set of groups left out after an action on one. */
export function applyGroupAction(a: GroupAction, cause: string, leftOut: ReadonlySet<string>): Set<string> {
  const next = new Set(leftOut);
  if (a === GROUP_ACTIONS.leaveOut) next.add(cause);
  if (a === GROUP_ACTIONS.include) next.delete(cause);
  return next;
}
