/**
 * On activation: this workspace's runs that are not done. A run paused on a question is
 * opened to ask it again; any other interrupted run is offered ("Resume" / "Not Now"); a run
 * held by another window is reported and left alone. No model is called here: the offer
 * waits for the user, and a re-asked question comes before any model call.
 */
import * as vscode from 'vscode';
import { startupActions, stillLocked, type StartupAction } from './logic/startup';
import { OPEN_RUN, RESUME_BUTTONS, alreadyFinishedMessage, openElsewhereMessage, resumeOfferMessage } from './logic/texts';
import * as core from './lazy-modules';

/** A window that is reloading holds its locks until its old extension host has saved and exited. */
const LOCK_WAIT = { attempts: 15, delayMs: 1000 };

export interface StartupDeps {
  log: vscode.LogOutputChannel;
  stateDir: string;
  workspace: string;
  activeRunIds: () => Set<string>;
  resume: (runId: string) => void;
  openRun: (runId: string) => void;
}

export async function startupScan(d: StartupDeps): Promise<void> {
  const runs = await core.runAdmin().unfinishedRuns(d.stateDir, { workspace: d.workspace });
  const actions = startupActions(runs, d.activeRunIds());
  d.log.info(`startup: ${runs.length} unfinished run(s) of ${d.workspace} in ${d.stateDir}`);
  await Promise.all(actions.map((a) => act(a, d)));
}

async function act(a: StartupAction, d: StartupDeps): Promise<void> {
  switch (a.kind) {
    case 'ask-again':
      d.log.info(`startup: run ${a.runId} (${a.task}) is paused on a question; asking it again`);
      d.resume(a.runId);
      return;
    case 'offer': {
      d.log.info(`startup: run ${a.runId} (${a.task}) was interrupted at turn ${a.turn}; offering to resume it`);
      const pick = await vscode.window.showInformationMessage(resumeOfferMessage(a.runId, a.task, a.turn), RESUME_BUTTONS.resume, RESUME_BUTTONS.notNow);
      if (pick !== RESUME_BUTTONS.resume) return;
      // An old offer, clicked after the run finished (e.g. in another window): say so instead of reopening it.
      const now = await core
        .stores()
        .openStateFolder(d.stateDir)
        .readRun(a.runId)
        .catch(() => undefined);
      if (now?.phase === 'done') {
        const open = await vscode.window.showInformationMessage(alreadyFinishedMessage(a.runId, a.task), OPEN_RUN);
        if (open === OPEN_RUN) d.openRun(a.runId);
        return;
      }
      d.resume(a.runId);
      return;
    }
    case 'open-elsewhere': {
      const files = core.stores().openStateFolder(d.stateDir);
      const locked = await stillLocked(() => files.runLocked(a.runId), LOCK_WAIT);
      if (locked) {
        d.log.warn(`startup: run ${a.runId} is open in another window or process; not running it here`);
        void vscode.window.showWarningMessage(openElsewhereMessage(a.runId));
        return;
      }
      // Released meanwhile (a reloading window's old extension host exited): decide again.
      const again = (await files.listRuns()).filter((l) => l.runId === a.runId);
      for (const next of startupActions(again, d.activeRunIds())) if (next.kind !== 'open-elsewhere') await act(next, d);
      return;
    }
  }
}
