/**
 * What the extension does on startup for this workspace's runs that are not done. It never
 * calls a model by itself: a run paused on a question is opened only to ask that question
 * again (no model call comes before the answer); any other interrupted run is offered, and
 * resumed only when the user says so.
 */

/** The parts of a RunListing (src/store/run-store.ts) the decision needs. */
export interface ListedRun {
  runId: string;
  locked: boolean;
  state?: { task: string; phase: string; turns: number; pending?: readonly { kind: string }[] };
}

export type StartupAction =
  /** Paused on a person's answer: open it here so its question is asked again. */
  | { kind: 'ask-again'; runId: string; task: string }
  /** Interrupted: "was interrupted at turn N. Resume it?" */
  | { kind: 'offer'; runId: string; task: string; turn: number }
  /** Held by another live window or process: say so, do not run it. */
  | { kind: 'open-elsewhere'; runId: string };

/**
 * One action per unfinished run, in the listing's order (newest first). Runs this window is
 * running already (`active`) and done or unreadable runs get none.
 */
export function startupActions(runs: readonly ListedRun[], active: ReadonlySet<string> = new Set()): StartupAction[] {
  const out: StartupAction[] = [];
  for (const r of runs) {
    const s = r.state;
    if (!s || s.phase === 'done' || active.has(r.runId)) continue;
    if (r.locked) out.push({ kind: 'open-elsewhere', runId: r.runId });
    else if (s.phase === 'paused' && (s.pending?.length ?? 0) > 0) out.push({ kind: 'ask-again', runId: r.runId, task: s.task });
    else out.push({ kind: 'offer', runId: r.runId, task: s.task, turn: s.turns });
  }
  return out;
}

/**
 * Waits while `isLocked()` says yes, up to `attempts` checks `delayMs` apart: a window that
 * is reloading still holds its runs' locks for a moment while its old extension host shuts
 * down. Resolves true if the lock is still held at the end.
 */
export async function stillLocked(
  isLocked: () => Promise<boolean>,
  o: { attempts: number; delayMs: number; sleep?: (ms: number) => Promise<void> },
): Promise<boolean> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let i = 0; i < o.attempts; i++) {
    if (!(await isLocked())) return false;
    if (i < o.attempts - 1) await sleep(o.delayMs);
  }
  return true;
}
