/**
 * The files a run wrote, compared three ways (as before the run, as the run left them, as
 * they are now), and undoing the run's changes: each file put back as it was before the run
 * first wrote it (from the content store), each file the run created deleted. Undo refuses, and
 * changes nothing, when a file was edited after the run wrote it (that edit would be lost), when
 * the run did not record a file's earlier version, when that version no longer matches its
 * SHA-256, or when a path goes through a symlink out of the workspace (links.ts).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RunHandle } from '../store/run-handle';
import { ABSENT, type RunState, type WorktreeRef } from '../store/state';
import { UndoRefusedError, type FileChange } from '../core/errors';
import { checkWorkspace } from './ledger';
import { isErrno } from '../disk/atomic-write';
import { storedVersion } from './stored-version';
import { pathStayingInWorkspace } from './links';
import { ledgerFile } from './ledger-file';
import type { RunFileStatus } from '../core/transcript';

/** Where a file the run wrote stands now (a type of the views: the Run panel shows it). */
export type { RunFileStatus } from '../core/transcript';

export interface RunFile {
  path: string;
  /** The run's version (SHA-256 in the content store). */
  sha256: string;
  /** As it was before the run: a SHA-256 in the content store, "absent" (the run created it), or undefined (not recorded). */
  before?: string;
  /** The SHA-256 of the file now, or null when it is missing. */
  current: string | null;
  status: RunFileStatus;
  callId: string;
  /** Written in a cause's worktree (--pull-requests); `path` is then the file's absolute path. */
  worktree?: WorktreeRef;
}

function statusOf(sha256: string, before: string | undefined, current: string | null): RunFileStatus {
  if (current === sha256) return 'as-written';
  if (before !== undefined && (before === ABSENT ? current === null : current === before)) return 'undone';
  return current === null ? 'missing' : 'changed';
}

/** Every file the run wrote, by path, with where it stands now. */
export async function runFiles(state: Pick<RunState, 'config' | 'files'>): Promise<RunFile[]> {
  const files = state.files ?? {};
  const changes = new Map((await checkWorkspace(state.config.workspace, files)).map((c) => [c.path, c]));
  return Object.entries(files)
    .map(([p, rec]) => {
      const c = changes.get(p);
      const current = c ? c.actual : rec.sha256;
      const f: RunFile = { path: p, sha256: rec.sha256, current, status: statusOf(rec.sha256, rec.before, current), callId: rec.callId };
      if (rec.before !== undefined) f.before = rec.before;
      if (rec.worktree) f.worktree = rec.worktree;
      return f;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The files undo would change (restore or delete), or UndoRefusedError. Files already undone are left out. */
export async function undoPlan(state: RunState): Promise<{ restore: RunFile[]; remove: RunFile[] }> {
  const files = await runFiles(state);
  const changed: FileChange[] = files
    .filter((f) => f.status === 'changed' || f.status === 'missing')
    .map((f) => ({ path: f.path, expected: f.sha256, actual: f.current }));
  const unknown = files.filter((f) => f.before === undefined && f.status !== 'undone').map((f) => f.path);
  if (changed.length > 0 || unknown.length > 0)
    throw new UndoRefusedError(
      state.runId,
      changed,
      unknown.filter((p) => !changed.some((c) => c.path === p)),
    );
  const todo = files.filter((f) => f.status === 'as-written');
  return { restore: todo.filter((f) => f.before !== ABSENT), remove: todo.filter((f) => f.before === ABSENT) };
}

/**
 * Undoes the run's changes (the lock held through `handle`); returns the paths restored and deleted.
 * Every earlier version is read and checked against its SHA-256, and every path checked for a
 * symlink leading out of the workspace (WorkspaceLinkError), before the first write or delete.
 */
export async function undoRunChanges(handle: RunHandle, state: RunState): Promise<{ restored: string[]; deleted: string[] }> {
  const plan = await undoPlan(state);
  const workspace = state.config.workspace;
  const action = `Undoing run ${state.runId}'s changes`;
  const versions = await Promise.all(
    plan.restore.map(
      async (f) => [f, await storedVersion(handle, f.before!, `the version of ${f.path} from before the run`, 'so it cannot be put back')] as const,
    ),
  );
  const inPlace = (f: RunFile): string => {
    const at = ledgerFile(workspace, f.path, f);
    return pathStayingInWorkspace(at.top, at.rel, action);
  };
  const writes = versions.map(([f, buf]) => [inPlace(f), buf] as const);
  const deletes = plan.remove.map(inPlace);
  handle.assertHeld();
  for (const [file, buf] of writes) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, buf);
  }
  for (const file of deletes) {
    try {
      await fs.unlink(file);
    } catch (e) {
      if (!isErrno(e, 'ENOENT')) throw e;
    }
  }
  return { restored: versions.map(([f]) => f.path), deleted: plan.remove.map((f) => f.path) };
}
