/**
 * Showing a run's stop: the typed error's notification (logic/error-view.ts) and what each
 * button does. A changed workspace gets its own loop: Show Diff shows the diffs and asks
 * again; Restore (after a confirmation; the person's versions are kept in a folder beside the
 * run's state) and Keep My Edits fix the workspace and resume;
 * Abandon Run deletes the run's checkpoint (after a confirmation).
 */
import * as vscode from 'vscode';
import { WorkspaceChangedError } from '../core/errors';
import { ACTIONS, errorView, type Action } from './logic/error-view';
import { CHANGED_BUTTONS, workspaceChangedMessage } from './logic/texts';
import { keptVersionsMessage, restoreConfirmMessage } from './logic/restore-texts';
import { showChangedDiffs } from './diffs';
import * as core from './lazy-modules';
import type { RunStore } from '../store/run-store';

export interface StopDeps {
  log: vscode.LogOutputChannel;
  stateDir: () => string;
  /** The run store this window works on, and whether it is a shared one. */
  store: () => Promise<RunStore>;
  shared: () => boolean;
  resume: (runId: string) => void;
  openCheckpoint: (runId: string) => void;
  setApiKey: () => void;
  changed: () => void;
}

export function presentStop(e: unknown, runId: string | undefined, d: StopDeps): void {
  const run = async (): Promise<void> => {
    if (e instanceof WorkspaceChangedError) return workspaceChanged(e, d);
    const v = errorView(e, runId);
    const show =
      v.severity === 'error'
        ? vscode.window.showErrorMessage
        : v.severity === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    const pick = (await show(v.message, ...v.actions)) as Action | undefined;
    if (pick) await act(pick, v.runId, d);
  };
  run().catch((err: Error) => d.log.error(`could not show the stop of ${runId ?? 'a run'}: ${err.stack ?? err.message}`));
}

async function act(a: Action, runId: string | undefined, d: StopDeps): Promise<void> {
  switch (a) {
    case ACTIONS.resume:
      if (runId) d.resume(runId);
      return;
    case ACTIONS.openCheckpoint:
      if (runId) d.openCheckpoint(runId);
      return;
    case ACTIONS.settings:
      await vscode.commands.executeCommand('workbench.action.openSettings', 'durableTriage');
      return;
    case ACTIONS.showLog:
      d.log.show(true);
      return;
    case ACTIONS.setApiKey:
      d.setApiKey();
      return;
    default:
      return;
  }
}

async function workspaceChanged(e: WorkspaceChangedError, d: StopDeps): Promise<void> {
  const admin = core.runAdmin();
  const stateDir = d.stateDir();
  const runId = e.runId;
  d.log.warn(`[${runId}] ${e.message}`); // an expected stop: a warning with its message
  // The recorded demo cannot go on from edited files (its recording diverges): Keep My Edits only where the model is live.
  const provider = (
    await core
      .stores()
      .openStateFolder(stateDir)
      .readRun(runId)
      .catch(() => undefined)
  )?.config.provider;
  const live = provider !== 'recorded';
  const message = workspaceChangedMessage(
    e.changes.map((c) => c.path),
    live,
  );
  const buttons = live
    ? [CHANGED_BUTTONS.diff, CHANGED_BUTTONS.restore, CHANGED_BUTTONS.accept, CHANGED_BUTTONS.abandon]
    : [CHANGED_BUTTONS.diff, CHANGED_BUTTONS.restore, CHANGED_BUTTONS.abandon];
  for (;;) {
    const pick = await vscode.window.showErrorMessage(message, ...buttons);
    try {
      switch (pick) {
        case CHANGED_BUTTONS.diff: {
          const state = await (await d.store()).readRun(runId);
          await showChangedDiffs(d.shared() ? (await d.store()).where : stateDir, state.config.workspace, e.changes);
          continue;
        }
        case CHANGED_BUTTONS.restore: {
          const sure = await vscode.window.showWarningMessage(
            restoreConfirmMessage(
              runId,
              e.changes.map((c) => c.path),
            ),
            { modal: true },
            CHANGED_BUTTONS.restore,
          );
          if (sure !== CHANGED_BUTTONS.restore) continue;
          const restored = await admin.restoreAgentVersion(await d.store(), runId);
          d.log.info(
            `[${runId}] restored the agent's version of ${restored.changes.map((c) => c.path).join(', ') || 'no file (none had changed)'}${restored.keptIn ? `; your versions are kept in ${restored.keptIn}` : ''}; resuming`,
          );
          if (restored.keptIn) void vscode.window.showInformationMessage(keptVersionsMessage(restored.kept, restored.keptIn));
          d.resume(runId);
          return;
        }
        case CHANGED_BUTTONS.accept: {
          const accepted = await admin.acceptCurrentFiles(await d.store(), runId);
          d.log.info(
            `[${runId}] accepted the current ${accepted.map((c) => c.path).join(', ') || '(no changed file)'}; the model is told what changed; resuming`,
          );
          d.resume(runId);
          return;
        }
        case CHANGED_BUTTONS.abandon: {
          const sure = await vscode.window.showWarningMessage(
            `Abandon run ${runId}? Its checkpoint is deleted; the workspace files and any issues it filed stay as they are.`,
            { modal: true },
            CHANGED_BUTTONS.abandon,
          );
          if (sure !== CHANGED_BUTTONS.abandon) continue;
          await admin.abandonRun(await d.store(), runId);
          d.log.info(`[${runId}] abandoned`);
          d.changed();
          return;
        }
        default:
          d.log.info(`[${runId}] the changed files were left as they are; resume the run from the Runs view to decide`);
          return;
      }
    } catch (err) {
      presentStop(err, runId, d);
      return;
    }
  }
}
