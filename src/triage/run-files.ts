/**
 * The files a run wrote, for a person: "Review Changes" (each file as before the run, as the
 * run left it, as it is now) and "Undo Run's Changes" (each put back as it was before the run;
 * the files it created deleted), which takes the run's lock, so a run open elsewhere is not
 * undone under it, and is recorded in the run's history.
 */
import { withStore, type StoreRef } from '../store/open-store';
import { runFiles, undoRunChanges, undoPlan, type RunFile } from '../workspace/undo';
import { runEvents } from './run-events';

export type { RunFile, RunFileStatus } from '../workspace/undo';

/** Every file the run wrote, with where it stands now (no lock: for views). */
export async function reviewChanges(at: StoreRef, runId: string): Promise<{ workspace: string; files: RunFile[] }> {
  const state = await withStore(at, (s) => s.readRun(runId));
  return { workspace: state.config.workspace, files: await runFiles(state) };
}

/** Every file the run (its state already read) wrote, with where it stands now (no lock: for pickers). */
export async function filesOf(state: Parameters<typeof runFiles>[0]): Promise<RunFile[]> {
  return runFiles(state);
}

/** What an undo would do now, for the confirmation (UndoRefusedError when it would be refused). */
export async function planUndo(at: StoreRef, runId: string): Promise<{ restore: string[]; remove: string[] }> {
  const plan = await undoPlan(await withStore(at, (s) => s.readRun(runId)));
  return { restore: plan.restore.map((f) => f.path), remove: plan.remove.map((f) => f.path) };
}

/** Undoes the run's changes (LockedError when the run is open elsewhere, UndoRefusedError when it would lose edits). */
export async function undoRun(at: StoreRef, runId: string): Promise<{ restored: string[]; deleted: string[] }> {
  return withStore(at, async (store) => {
    const { handle, state } = await store.openRun(runId);
    try {
      const done = await undoRunChanges(handle, state);
      if (done.restored.length + done.deleted.length > 0) {
        await runEvents(store)
          .append(runId, [{ type: 'undone', at: new Date().toISOString(), restored: done.restored, deleted: done.deleted }])
          .catch(() => undefined);
      }
      return done;
    } finally {
      await handle.close();
    }
  });
}
