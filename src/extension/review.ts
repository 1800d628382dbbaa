/**
 * Review Changes, a file's diff, and Undo Run's Changes. The left side of every diff is the
 * file as it was before the run (from the content store; empty for a file the run created),
 * the right side the file as it is now (or, when it was deleted, empty). Undo asks first, and
 * when a file was edited after the run wrote it, refuses and shows those diffs instead.
 */
import * as vscode from 'vscode';
import { UndoRefusedError } from '../core/errors';
import { ABSENT } from '../store/state';
import type { RunFile } from '../workspace/undo';
import { ledgerFile } from '../workspace/ledger-file';
import { shortRunId } from './logic/run-rows';
import { reviewTitle } from './logic/restored-review';
import { PREFIX } from './logic/texts';
import { noLinks } from './logic/no-links';
import { blobUri, missingUri } from './docs';
import { showChangedDiffs } from './diffs';
import * as core from './lazy-modules';
import type { RunStore } from '../store/run-store';

/** The window's store, and the name its documents' addresses use for it (the folder, or the shared store's URL without password). */
export interface ReviewAt {
  name: string;
  store: RunStore;
}

/** The file on disk: in the workspace, or (--pull-requests) in its cause's worktree. */
function abs(workspace: string, f: RunFile): string {
  return ledgerFile(workspace, f.path, f).file;
}

/** The file before the run; its URI's path is the file's own, so the diff editors show one file, not a rename. */
function beforeUri(at: ReviewAt, workspace: string, f: RunFile): vscode.Uri {
  return f.before && f.before !== ABSENT ? blobUri(at.name, f.before, abs(workspace, f)) : missingUri(abs(workspace, f));
}

function nowUri(workspace: string, f: RunFile): vscode.Uri {
  return f.current === null ? missingUri(abs(workspace, f)) : vscode.Uri.file(abs(workspace, f));
}

/** Every file the run wrote, as one multi-file diff against the files before the run. */
export async function reviewChanges(at: ReviewAt, runId: string): Promise<void> {
  const { workspace, files } = await core.runFiles().reviewChanges(at.store, runId);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(`${PREFIX}: run ${runId} wrote no files.`);
    return;
  }
  const state = await at.store.readRun(runId);
  const title = reviewTitle(runId, state.task);
  try {
    await vscode.commands.executeCommand(
      'vscode.changes',
      title,
      files.map((f) => [nowUri(workspace, f), beforeUri(at, workspace, f), nowUri(workspace, f)]),
    );
  } catch {
    for (const f of files) await openFileDiff(at, runId, f.path, workspace, f);
  }
}

/** One file's diff against the file before the run. */
export async function openFileDiff(at: ReviewAt, runId: string, rel: string, workspace?: string, known?: RunFile): Promise<void> {
  let f = known;
  let ws = workspace;
  if (!f || !ws) {
    const r = await core.runFiles().reviewChanges(at.store, runId);
    ws = r.workspace;
    f = r.files.find((x) => x.path === rel);
  }
  if (!f) {
    void vscode.window.showInformationMessage(noLinks(`${PREFIX}: run ${runId} did not write ${rel}.`));
    return;
  }
  const label = f.before === ABSENT ? 'created by the run' : f.before === undefined ? 'before the run not recorded' : 'before the run ↔ now';
  await vscode.commands.executeCommand('vscode.diff', beforeUri(at, ws, f), nowUri(ws, f), `${f.path} (${label})`, { preview: true });
}

/** Undo Run's Changes: asks first; a refusal shows the files changed since the run wrote them. */
export async function undoRun(
  at: ReviewAt,
  runId: string,
  d: { log: vscode.LogOutputChannel; isActive: (runId: string) => boolean; changed: () => void },
): Promise<void> {
  if (d.isActive(runId)) {
    void vscode.window.showWarningMessage(`${PREFIX}: run ${runId} is running in this window; cancel it before undoing its changes.`);
    return;
  }
  const files = core.runFiles();
  let plan: { restore: string[]; remove: string[] };
  try {
    plan = await files.planUndo(at.store, runId);
  } catch (e) {
    if (e instanceof UndoRefusedError) return refused(at, runId, e);
    throw e;
  }
  if (plan.restore.length + plan.remove.length === 0) {
    void vscode.window.showInformationMessage(`${PREFIX}: run ${runId}'s changes are undone already.`);
    return;
  }
  const state = await at.store.readRun(runId);
  const detail = [
    plan.restore.length ? `Put back as before the run: ${plan.restore.join(', ')}.` : '',
    plan.remove.length ? `Deleted (the run created them): ${plan.remove.join(', ')}.` : '',
    state.phase === 'done' ? '' : 'The run is not finished: resuming it later stops to ask about these files.',
    'Issues the run filed stay filed.',
  ]
    .filter((l) => l !== '')
    .join('\n');
  const UNDO = "Undo Run's Changes";
  const sure = await vscode.window.showWarningMessage(`Undo the changes of run ${shortRunId(runId, state.task)}?`, { modal: true, detail }, UNDO);
  if (sure !== UNDO) return;
  try {
    const done = await files.undoRun(at.store, runId);
    d.log.info(`[${runId}] undone: restored ${done.restored.join(', ') || 'none'}; deleted ${done.deleted.join(', ') || 'none'}`);
    void vscode.window.showInformationMessage(
      `${PREFIX}: the changes of run ${shortRunId(runId, state.task)} were undone (${done.restored.length} put back, ${done.deleted.length} deleted).`,
    );
    d.changed();
  } catch (e) {
    if (e instanceof UndoRefusedError) return refused(at, runId, e);
    throw e;
  }
}

async function refused(at: ReviewAt, runId: string, e: UndoRefusedError): Promise<void> {
  const SHOW = 'Show Diff';
  const pick = await vscode.window.showWarningMessage(noLinks(`${PREFIX}: ${e.message}`), ...(e.changes.length > 0 ? [SHOW] : []));
  if (pick !== SHOW) return;
  const state = await at.store.readRun(runId);
  await showChangedDiffs(at.name, state.config.workspace, e.changes);
}
