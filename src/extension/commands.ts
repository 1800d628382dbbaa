/**
 * The commands (category "Durable Triage"). Commands that act on a run take the Runs view's
 * node when invoked from it, and ask with a quick pick from the palette.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BadInputError } from '../core/errors';
import type { RunState } from '../durable/state';
import { shortRunId } from './logic/runRows';
import type { ExtensionSettings } from './logic/settings';
import { FINISHED_BUTTONS, finishedRunMessage, formatDollars } from './logic/texts';
import type { NotificationApprover, Questions } from './approver';
import type { RunManager } from './runManager';
import type { ApiKeys } from './secrets';
import type { Node } from './runsView';
import { pickModel, pickTask } from './pickers';
import { modelForResume, modelForStart } from './models';
import { stateUri } from './docs';
import { chooseTracker, githubAccess } from './tracker';
import * as core from './core';

export interface CommandDeps {
  log: vscode.LogOutputChannel;
  manager: RunManager;
  approver: NotificationApprover;
  questions: Questions;
  keys: ApiKeys;
  settings: () => ExtensionSettings;
  stateDir: () => string;
  workspace: () => string | undefined;
  refresh: () => void;
  present: (e: unknown, runId?: string) => void;
}

export interface Commands {
  resumeRun(runId: string): Promise<void>;
  openCheckpoint(runId: string): Promise<void>;
  setApiKey(): Promise<void>;
}

function runIdOf(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (n?.type === 'run') return n.info.runId;
  if (n?.type === 'child') return n.row.runId;
  return undefined;
}

function needWorkspace(d: CommandDeps): string {
  const ws = d.workspace();
  if (!ws) throw new BadInputError('Open the folder the agent should work in first (File: Open Folder…); Durable Triage runs in the open workspace.');
  return ws;
}

/** A quick pick of this workspace's runs that pass `filter`. */
async function pickRun(d: CommandDeps, title: string, filter: (s: RunState, locked: boolean) => boolean): Promise<string | undefined> {
  const ws = d.workspace();
  const runs = (await core.checkpoints().listRuns(d.stateDir())).filter(
    (l) => l.state && (!ws || path.resolve(l.state.config.workspace) === path.resolve(ws)) && filter(l.state, l.locked),
  );
  if (runs.length === 0) {
    void vscode.window.showInformationMessage(`Durable Triage: no run to ${title.toLowerCase()} in this workspace.`);
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    runs.map((l) => ({
      label: shortRunId(l.runId, l.state!.task),
      description: `${l.state!.phase} · turn ${l.state!.turns} · ${formatDollars(l.state!.usage.dollars)} · restarts ${l.state!.restarts}`,
      detail: l.runId,
      runId: l.runId,
    })),
    { title: `Durable Triage: ${title}`, placeHolder: 'Which run?' },
  );
  return pick?.runId;
}

export function registerCommands(context: vscode.ExtensionContext, d: CommandDeps): Commands {
  const cmds: Commands = {
    async resumeRun(runId) {
      try {
        if (d.manager.isActive(runId)) {
          void vscode.window.showInformationMessage(`Durable Triage: run ${runId} is already running in this window.`);
          return;
        }
        const state = await core.checkpoints().readRun(d.stateDir(), runId);
        // A finished run shows its saved result and calls no model: nothing to pick or unlock.
        const model = state.phase === 'done' ? undefined : await modelForResume(state.config, d.settings(), { keys: d.keys, log: d.log });
        await d.manager.resume(runId, state.task, model, await githubAccess(state.config.options?.trackerUrl));
      } catch (e) {
        d.present(e, runId);
      }
    },
    async openCheckpoint(runId) {
      const doc = await vscode.workspace.openTextDocument(stateUri(d.stateDir(), runId));
      await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    async setApiKey() {
      await d.keys.prompt();
    },
  };

  /** Answers a question from the Runs view; a run that is not waiting here is resumed and gets the answer when it asks. */
  const answer = async (node: unknown, a: 'approve' | 'deny'): Promise<void> => {
    let target = node as Node | undefined;
    if (target?.type !== 'child' || target.row.kind !== 'question') target = await pickApproval(d);
    if (!target || target.type !== 'child' || target.row.kind !== 'question') return;
    const { runId, callId, tool } = target.row;
    d.log.info(`[${runId}] ${tool} (${callId}): ${a} (from the Runs view)`);
    if (d.questions.answer(runId, callId, a)) return;
    d.questions.preanswer(runId, callId, a);
    if (!d.manager.isActive(runId)) await cmds.resumeRun(runId);
  };

  const guard =
    <A extends unknown[]>(name: string, f: (...args: A) => Promise<void> | void) =>
    async (...args: A): Promise<void> => {
      try {
        await f(...args);
      } catch (e) {
        d.log.error(`${name}: ${(e as Error).stack ?? String(e)}`);
        d.present(e, runIdOf(args[0]));
      }
    };

  const register = (id: string, f: (...args: unknown[]) => Promise<void> | void): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, guard(id, f)));
  };

  /**
   * The same Start twice finds the run it started: unfinished, it is resumed (by the job);
   * done, the user chooses between its saved result (no model call) and a new run.
   */
  const finishedChoice = async (task: string, ws: string): Promise<'new' | 'shown' | 'cancel' | undefined> => {
    const latest = await core.runAdmin().latestRun(d.stateDir(), { task, workspace: ws });
    if (latest?.phase !== 'done') return undefined;
    const pick = await vscode.window.showInformationMessage(finishedRunMessage(task, latest.runId, latest.updatedAt), { modal: true }, FINISHED_BUTTONS.show, FINISHED_BUTTONS.fresh);
    if (pick === FINISHED_BUTTONS.fresh) return 'new';
    if (pick !== FINISHED_BUTTONS.show) return 'cancel';
    await cmds.resumeRun(latest.runId);
    return 'shown';
  };

  register('durableTriage.start', async () => {
    const ws = needWorkspace(d);
    const task = await pickTask(ws);
    if (!task) return;
    const choice = await finishedChoice(task.task, ws);
    if (choice === 'shown' || choice === 'cancel') return;
    const s = d.settings();
    const provider = await pickModel(s.provider, task.kind === 'catalog');
    if (!provider) return;
    const model = await modelForStart(provider, s, { keys: d.keys, log: d.log });
    const tracker = await chooseTracker(ws, s);
    if (!tracker) return;
    const access = await githubAccess(tracker.trackerUrl);
    d.log.info(`start: ${task.task}${task.kind === 'folder' ? ` (crash reports in ${task.crashes})` : ''} with ${provider} in ${ws}, issues to ${tracker.trackerUrl ?? 'the embedded tracker'}`);
    await d.manager.start(task.task, ws, model, { ...(task.kind === 'folder' ? { crashes: task.crashes } : {}), ...(choice === 'new' ? { fresh: true } : {}), ...tracker, ...access });
  });

  register('durableTriage.startRecording', async () => {
    const ws = needWorkspace(d);
    const task = await pickTask(ws);
    if (!task) return;
    const choice = await finishedChoice(task.task, ws);
    if (choice === 'shown' || choice === 'cancel') return;
    const s = d.settings();
    const provider = await pickModel(s.provider, false);
    if (!provider) return;
    if (provider === 'recorded') {
      void vscode.window.showInformationMessage('Durable Triage: recording needs a live model; the recorded demo only replays.');
      return;
    }
    const target = await vscode.window.showSaveDialog({
      title: 'Save the run as a recording',
      defaultUri: vscode.Uri.file(`${ws}/${task.task}.recording.json`),
      filters: { Recording: ['json'] },
    });
    if (!target) return;
    const model = await modelForStart(provider, s, { keys: d.keys, log: d.log });
    const tracker = await chooseTracker(ws, s);
    if (!tracker) return;
    const access = await githubAccess(tracker.trackerUrl);
    d.log.info(`start (recording to ${target.fsPath}): ${task.task} with ${provider} in ${ws}, issues to ${tracker.trackerUrl ?? 'the embedded tracker'}`);
    await d.manager.start(task.task, ws, model, { ...(task.kind === 'folder' ? { crashes: task.crashes } : {}), recordTo: target.fsPath, ...(choice === 'new' ? { fresh: true } : {}), ...tracker, ...access });
  });

  register('durableTriage.resume', async (node) => {
    const runId = runIdOf(node) ?? (await pickRun(d, 'Resume Run', (s, locked) => s.phase !== 'done' && !locked && !d.manager.isActive(s.runId)));
    if (runId) await cmds.resumeRun(runId);
  });

  register('durableTriage.cancel', async (node) => {
    let runId = runIdOf(node);
    if (!runId) {
      const active = d.manager.list().filter((r) => r.runId);
      if (active.length === 0) {
        void vscode.window.showInformationMessage('Durable Triage: no run is running in this window.');
        return;
      }
      runId =
        active.length === 1
          ? active[0].runId
          : (await vscode.window.showQuickPick(active.map((r) => ({ label: r.runId!, description: `${r.task} · turn ${r.turn} · ${formatDollars(r.dollars)}` })), { title: 'Durable Triage: Cancel Run' }))?.label;
    }
    if (runId && !d.manager.cancel(runId)) void vscode.window.showInformationMessage(`Durable Triage: run ${runId} is not running in this window.`);
  });

  register('durableTriage.approve', (node) => answer(node, 'approve'));
  register('durableTriage.deny', (node) => answer(node, 'deny'));

  register('durableTriage.showQuestion', async (node) => {
    const n = node as Node | undefined;
    if (n?.type !== 'child' || n.row.kind !== 'question') return;
    if (d.approver.showAgain(n.row.runId, n.row.callId)) return;
    if (!d.manager.isActive(n.row.runId)) await cmds.resumeRun(n.row.runId);
  });

  register('durableTriage.openCheckpoint', async (node) => {
    const runId = runIdOf(node) ?? (await pickRun(d, 'Open Checkpoint', () => true));
    if (runId) await cmds.openCheckpoint(runId);
  });

  register('durableTriage.deleteRun', async (node) => {
    const runId = runIdOf(node) ?? (await pickRun(d, 'Delete Run', (s, locked) => !locked && !d.manager.isActive(s.runId)));
    if (!runId) return;
    if (d.manager.isActive(runId)) {
      void vscode.window.showWarningMessage(`Durable Triage: run ${runId} is running in this window; cancel it first.`);
      return;
    }
    const sure = await vscode.window.showWarningMessage(
      `Delete run ${runId}? Its checkpoint is removed and it cannot be resumed; the workspace files and any issues it filed stay.`,
      { modal: true },
      'Delete Run',
    );
    if (sure !== 'Delete Run') return;
    await core.runAdmin().abandonRun(d.stateDir(), runId);
    d.log.info(`[${runId}] deleted`);
    d.refresh();
  });

  register('durableTriage.setApiKey', () => cmds.setApiKey());
  register('durableTriage.showLog', () => d.log.show(true));
  register('durableTriage.refreshRuns', () => d.refresh());
  return cmds;
}

/** From the palette: the approvals asked now in this window, else those saved in paused runs. */
async function pickApproval(d: CommandDeps): Promise<Node | undefined> {
  type Q = { runId: string; callId: string; tool: string };
  let qs: Q[] = d.questions.list().filter((q) => q.kind === 'approval');
  if (qs.length === 0) {
    const ws = d.workspace();
    const runs = await core.runAdmin().unfinishedRuns(d.stateDir(), ws ? { workspace: ws } : {});
    qs = runs.flatMap((l) => (l.state?.pending ?? []).filter((p) => p.kind === 'approval').map((p) => ({ runId: l.runId, callId: p.callId, tool: p.tool })));
  }
  if (qs.length === 0) {
    void vscode.window.showInformationMessage('Durable Triage: no approval is waiting.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    qs.map((q) => ({ label: `${q.tool} (${q.callId})`, description: q.runId, q })),
    { title: 'Durable Triage: which approval?' },
  );
  if (!pick) return undefined;
  const { runId, callId, tool } = pick.q;
  return { type: 'child', row: { kind: 'question', question: 'approval', runId, callId, tool, label: '', description: '', contextValue: 'question-approval' } };
}
