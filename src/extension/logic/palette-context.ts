/**
 * The context keys the extension keeps true to its state, so the command palette lists a command
 * only when it has something to act on (package.json's menus.commandPalette `when` clauses):
 * no Approve or Deny without a question waiting, no Cancel without a run running in this window.
 */

export const CONTEXT_KEYS = {
  /** A question waits in this workspace's runs: this window's (the badge) or another window's (its pick says where to answer). */
  hasPendingQuestion: 'durableTriage.hasPendingQuestion',
  /** A run runs (or waits for an answer) in this window. */
  hasActiveRun: 'durableTriage.hasActiveRun',
  /** An unfinished run here that no window has open: Resume has something to resume. */
  hasResumableRun: 'durableTriage.hasResumableRun',
  /** This workspace has a run (any phase). */
  hasRuns: 'durableTriage.hasRuns',
} as const;

export type ContextKey = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];

export interface PaletteState {
  /** This workspace's runs, as listed in the store. */
  runs: readonly { runId: string; phase?: string; locked: boolean }[];
  /** Questions waiting for a person: the badge's count, and those asked in another window (questionsInPalette). */
  waiting: number;
  /** The runs running in this window. */
  activeHere: readonly string[];
}

/** Every key with its value for `s` (all false when there is no run). */
export function paletteContext(s: PaletteState): Record<ContextKey, boolean> {
  const active = new Set(s.activeHere);
  return {
    [CONTEXT_KEYS.hasPendingQuestion]: s.waiting > 0,
    [CONTEXT_KEYS.hasActiveRun]: active.size > 0,
    [CONTEXT_KEYS.hasResumableRun]: s.runs.some((r) => r.phase !== undefined && r.phase !== 'done' && !r.locked && !active.has(r.runId)),
    [CONTEXT_KEYS.hasRuns]: s.runs.length > 0 || active.size > 0,
  };
}

/** The keys whose value differs from `before` (what setContext must be told again). */
export function changedKeys(before: Partial<Record<ContextKey, boolean>>, now: Record<ContextKey, boolean>): ContextKey[] {
  return (Object.keys(now) as ContextKey[]).filter((k) => before[k] !== now[k]);
}

/**
 * How many questions the palette's Approve / Deny offer: the badge's (this window's) and those
 * saved in runs another window or a triage process has open, which the badge leaves out but the
 * picker lists, marked, to say where to answer them.
 */
export function questionsInPalette(badge: number, runs: readonly { locked: boolean; pending: number }[]): number {
  return badge + runs.filter((r) => r.locked).reduce((n, r) => n + r.pending, 0);
}
