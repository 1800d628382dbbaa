/**
 * Administering the runs of a state folder (the CLI's status/show, the editor's Runs view and
 * its ways on after a stop): finding a task's runs, showing one, and the two repairs after a
 * workspace change, and deleting a run. Running a job is job.ts.
 */
import * as path from 'node:path';
import { deleteRun, listRuns, openRun, readRun, type RunListing } from '../durable/checkpoint';
import { acceptCurrentFiles as acceptFiles, checkWorkspace, restoreAgentVersion as restoreFiles } from '../durable/ledger';
import type { FileChange } from '../core/errors';
import type { RunState } from '../durable/state';
import { StateEdit } from '../durable/state-edit';
import { acceptedFilesNote } from '../agent/notes';
import { noteEvent, runEvents } from './run-events';

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
export async function unfinishedRuns(stateDir: string, filter: RunFilter = {}): Promise<RunListing[]> {
  return runsOf(await listRuns(stateDir), filter).filter((r) => r.state!.phase !== 'done');
}

/**
 * The newest run of the task (in that workspace, when given), finished or not: what the same
 * command finds again. A checkpoint that cannot be read might be that run, so it stops the
 * search with its CorruptCheckpointError rather than letting a second run start beside it.
 */
export async function latestRun(stateDir: string, filter: RunFilter): Promise<RunState | undefined> {
  const listed = await listRuns(stateDir);
  const corrupt = listed.find((r) => r.error);
  if (corrupt?.error) throw corrupt.error;
  return runsOf(listed, filter)[0]?.state;
}

/** Files the run wrote that no longer match (empty when the workspace is as the run left it). */
export async function changedFiles(stateDir: string, runId: string): Promise<FileChange[]> {
  const s = await readRun(stateDir, runId);
  return checkWorkspace(s.config.workspace, s.files);
}

/** Way on #1 after a workspace change: the agent's recorded versions are written back. */
export async function restoreAgentVersion(stateDir: string, runId: string): Promise<FileChange[]> {
  const { handle, state } = await openRun(stateDir, runId);
  try {
    const changes = await checkWorkspace(state.config.workspace, state.files);
    await restoreFiles(handle, state, changes);
    if (changes.length > 0) await noteEvent(stateDir, runId, { type: 'workspace-restored', at: new Date().toISOString(), files: changes.map((c) => c.path) });
    return changes;
  } finally {
    await handle.close();
  }
}

/** Way on #2: the current files are accepted and the model is told what changed (a diff, before its next call). */
export async function acceptCurrentFiles(stateDir: string, runId: string): Promise<FileChange[]> {
  const { handle, state } = await openRun(stateDir, runId);
  try {
    const changes = await checkWorkspace(state.config.workspace, state.files);
    if (changes.length > 0) {
      const edit = new StateEdit(state);
      const accepted = await acceptFiles(handle, edit, changes);
      edit.set('inbox', [...(state.inbox ?? []), acceptedFilesNote(accepted)]);
      await handle.save(edit, 'workspace-accepted');
      await noteEvent(stateDir, runId, { type: 'workspace-accepted', at: new Date().toISOString(), files: changes.map((c) => c.path) });
    }
    return changes;
  } finally {
    await handle.close();
  }
}

/** Deletes a run's checkpoint and event record (the workspace and tracker are left as they are). */
export async function abandonRun(stateDir: string, runId: string): Promise<void> {
  await deleteRun(stateDir, runId);
  await runEvents(stateDir).remove(runId);
}

/** The current state of a run as readable JSON (`triage show`, the Runs view's Open Checkpoint). */
export async function showState(stateDir: string, runId: string): Promise<string> {
  return JSON.stringify(await readRun(stateDir, runId), null, 2);
}
