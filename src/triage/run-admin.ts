/**
 * Administering the runs of a store (the CLI's status/show, the editor's Runs view and its ways
 * on after a stop): finding a task's runs, showing one, and the two repairs after a workspace
 * change, and deleting a run. Each takes the store itself, or a state folder or postgres:// URL
 * (a store opened for the call). Running a job is job.ts.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunListing } from '../store/run-store';
import { withStore, type StoreRef } from '../store/open-store';
import type { RunStore } from '../store/run-store';
import { acceptCurrentFiles as acceptFiles, checkWorkspace, restoreAgentVersion as restoreFiles } from '../workspace/ledger';
import type { FileChange } from '../core/errors';
import type { RunState } from '../store/state';
import { StateEdit } from '../store/state-edit';
import { acceptedFilesNote } from '../agent/notes';
import { noteEvent } from './run-events';
import { removeRunWorktrees } from './worktrees';

export interface RunFilter {
  workspace?: string;
  task?: string;
}

function runsOf(all: RunListing[], filter: RunFilter): RunListing[] {
  const ws = filter.workspace ? path.resolve(filter.workspace) : undefined;
  return all.filter(
    (r) =>
      r.state !== undefined &&
      (ws === undefined || path.resolve(r.state.config.workspace) === ws) &&
      (filter.task === undefined || r.state.task === filter.task),
  );
}

/** Runs that are not done, newest first; with `workspace`, only runs working in that folder. */
export async function unfinishedRuns(at: StoreRef, filter: RunFilter = {}): Promise<RunListing[]> {
  return runsOf(await withStore(at, (s) => s.listRuns()), filter).filter((r) => r.state!.phase !== 'done');
}

/**
 * The newest run of the task (in that workspace, when given), finished or not: what the same
 * command finds again. A checkpoint that cannot be read might be that run, so it stops the
 * search with its CorruptCheckpointError rather than letting a second run start beside it.
 */
export async function latestRun(at: StoreRef, filter: RunFilter): Promise<RunState | undefined> {
  const listed = await withStore(at, (s) => s.listRuns());
  const corrupt = listed.find((r) => r.error);
  if (corrupt?.error) throw corrupt.error;
  return runsOf(listed, filter)[0]?.state;
}

/** Files the run wrote that no longer match (empty when the workspace is as the run left it). */
export async function changedFiles(at: StoreRef, runId: string): Promise<FileChange[]> {
  const s = await withStore(at, (store) => store.readRun(runId));
  return checkWorkspace(s.config.workspace, s.files);
}

/** What Restore did: the files written back, and where the person's versions of them were kept. */
export interface Restored {
  changes: FileChange[];
  /** The folder holding the person's versions (same relative paths); undefined when none was kept (all deleted, or nothing changed). */
  keptIn?: string;
  kept: string[];
}

/** Where Restore keeps a person's versions: beside the run's state (a shared store: under the home folder). */
export function keptFolder(store: Pick<RunStore, 'kind' | 'where'>, runId: string, at: Date, home = os.homedir()): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const base = store.kind === 'files' ? store.where : path.join(home, '.durable-triage');
  return path.join(base, 'kept', runId, stamp);
}

/** Way on #1 after a workspace change: the person's versions are kept in a folder, then the agent's recorded versions are written back. */
export async function restoreAgentVersion(at: StoreRef, runId: string): Promise<Restored> {
  return withStore(at, async (store) => {
    const { handle, state } = await store.openRun(runId);
    try {
      const changes = await checkWorkspace(state.config.workspace, state.files);
      const keepTo = keptFolder(store, runId, new Date());
      const kept = await restoreFiles(handle, state, changes, { keepTo });
      if (changes.length > 0) await noteEvent(store, runId, { type: 'workspace-restored', at: new Date().toISOString(), files: changes.map((c) => c.path) });
      return { changes, kept, ...(kept.length > 0 ? { keptIn: keepTo } : {}) };
    } finally {
      await handle.close();
    }
  });
}

/** Way on #2: the current files are accepted and the model is told what changed (a diff, before its next call). */
export async function acceptCurrentFiles(at: StoreRef, runId: string): Promise<FileChange[]> {
  return withStore(at, async (store) => {
    const { handle, state } = await store.openRun(runId);
    try {
      const changes = await checkWorkspace(state.config.workspace, state.files);
      if (changes.length > 0) {
        const edit = new StateEdit(state);
        const accepted = await acceptFiles(handle, edit, changes);
        edit.set('inbox', [...(state.inbox ?? []), acceptedFilesNote(accepted)]);
        await handle.save(edit, 'workspace-accepted');
        await noteEvent(store, runId, { type: 'workspace-accepted', at: new Date().toISOString(), files: changes.map((c) => c.path) });
      }
      return changes;
    } finally {
      await handle.close();
    }
  });
}

/**
 * Deletes a run's checkpoint and event record, then its cause worktrees (worktrees.ts; their
 * branches kept). The workspace and tracker are left as they are.
 */
export async function abandonRun(at: StoreRef, runId: string): Promise<void> {
  await withStore(at, async (s) => {
    await s.deleteRun(runId);
    await s.events().remove(runId);
    await removeRunWorktrees(s, runId);
  });
}

/** The current state of a run as readable JSON (`triage show`, the Runs view's Open Checkpoint). */
export async function showState(at: StoreRef, runId: string): Promise<string> {
  return JSON.stringify(await withStore(at, (s) => s.readRun(runId)), null, 2);
}
