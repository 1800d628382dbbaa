/**
 * The commands (category "Durable Triage"). Commands that act on a run take the Runs view's
 * node when invoked from it, and ask with a quick pick from the palette.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BadInputError, TriageError } from '../core/errors';
import type { RunState } from '../store/state';
import { runPickDescription, shortRunId } from './logic/run-rows';
import type { ExtensionSettings, ProviderSetting } from './logic/settings';
import { LanguageModelUnavailableError, MODEL_BUTTONS, modelUnavailableView } from './logic/model-unavailable';
import { FINISHED_BUTTONS, deletedRunMessage, finishedRunMessage, formatDollars } from './logic/texts';
import { noLinks } from './logic/no-links';
import { undoMark, undoPickOrder } from './logic/undo-pick';
import { approvalChoiceRow, approvalChoices, askedElsewhereMessage } from './logic/approval-choices';
import { sampleCopyStart } from './logic/sample-copy-place';
import { ANSWERED_BY, type NotificationApprover, type Questions } from './approver';
import type { ModelOption, RunManager } from './run-manager';
import type { ApiKeys } from './secrets';
import type { SentryToken } from './sentry-token';
import type { Node } from './runs-view';
import { pickModel, pickTask } from './pickers';
import { modelForResume, modelForStart } from './models';
import { stateUri } from './docs';
import { chooseTracker, githubAccess } from './tracker';
import { openFileDiff, reviewChanges, undoRun, type ReviewAt } from './review';
import type { WrongWorkspaceError } from '../triage/tasks/sample-copy';
import { describeCall } from '../transcript/calls';
import * as core from './lazy-modules';
import type { RunStore } from '../store/run-store';

export interface CommandDeps {
  log: vscode.LogOutputChannel;
  manager: RunManager;
  approver: NotificationApprover;
  questions: Questions;
  keys: ApiKeys;
  /** The Sentry token in secret storage (a Sentry project as the crash source). */
  sentryToken: SentryToken;
  settings: () => ExtensionSettings;
  stateDir: () => string;
  /** The run store this window works on (the state folder's, or the shared PostgreSQL store). */
  store: () => Promise<RunStore>;
  /** "Set Store Password". */
  setStorePassword: () => Promise<void>;
  /** Records a person's answer for a worker (a run paused in a shared store); false when the store is not shared. */
  answerForWorker: (runId: string, callId: string, a: 'approve' | 'deny') => Promise<boolean>;
  /** Asks again about a run paused in a shared store, for a worker; false when the store is not shared. */
  askForWorker: (runId: string, callId: string) => Promise<boolean>;
  workspace: () => string | undefined;
  refresh: () => void;
  present: (e: unknown, runId?: string) => void;
  /** Opens the run's Run panel. */
  openRun: (runId: string, o?: { preserveFocus?: boolean }) => void;
}

export interface Commands {
  resumeRun(runId: string): Promise<void>;
  openCheckpoint(runId: string): Promise<void>;
  setApiKey(): Promise<void>;
  /** Answers a question of a run: the open one here, else kept for it and the run resumed to ask it. */
  answer(runId: string, callId: string, a: 'approve' | 'deny', by: string): Promise<void>;
  /** Shows a run's question (a dialog when it is open here, else the run is resumed to ask it). */
  ask(runId: string, callId: string): Promise<void>;
  reviewChanges(runId: string): Promise<void>;
  undo(runId: string): Promise<void>;
  diff(runId: string, path: string): Promise<void>;
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

/**
 * A quick pick of this workspace's runs that pass `filter`. `arrange` may mark each row (words put
 * before its description) and reorder them (Undo: runs undone already are marked and listed last).
 */
async function pickRun(
  d: CommandDeps,
  title: string,
  filter: (s: RunState, locked: boolean) => boolean,
  arrange?: (runs: RunState[]) => Promise<{ state: RunState; mark: string }[]>,
): Promise<string | undefined> {
  const ws = d.workspace();
  const runs = (await (await d.store()).listRuns())
    .filter((l) => l.state && (!ws || path.resolve(l.state.config.workspace) === path.resolve(ws)) && filter(l.state, l.locked))
    .map((l) => l.state!);
  if (runs.length === 0) {
    void vscode.window.showInformationMessage(`Durable Triage: no run to ${title.toLowerCase()} in this workspace.`);
    return undefined;
  }
  const rows = arrange ? await arrange(runs) : runs.map((state) => ({ state, mark: '' }));
  const pick = await vscode.window.showQuickPick(
    rows.map(({ state: s, mark }) => ({
      label: shortRunId(s.runId, s.task),
      description: runPickDescription({ phase: s.phase, turns: s.turns, dollars: s.usage.dollars, restarts: s.restarts }, d.manager.isActive(s.runId), mark),
      detail: s.runId,
      runId: s.runId,
    })),
    { title: `Durable Triage: ${title}`, placeHolder: 'Which run?', matchOnDescription: true },
  );
  return pick?.runId;
}

/** Undo's picker rows: each run marked by how much of its changes are undone now, those undone already last. */
async function undoRows(runs: RunState[]): Promise<{ state: RunState; mark: string }[]> {
  const files = core.runFiles();
  const rows = await Promise.all(
    runs.map(async (state) => {
      const statuses = await files
        .filesOf(state)
        .then((fs) => fs.map((f) => f.status))
        .catch(() => []);
      return { state, statuses, mark: undoMark(statuses) };
    }),
  );
  return undoPickOrder(rows, (r) => r.statuses);
}

export function registerCommands(context: vscode.ExtensionContext, d: CommandDeps): Commands {
  const reviewAt = async (): Promise<ReviewAt> => ({ name: d.stateDir(), store: await d.store() });
  const cmds: Commands = {
    async resumeRun(runId) {
      try {
        // Open here already (running, or waiting for an answer): the manager says which and offers the way on.
        if (d.manager.isActive(runId)) return d.manager.resume(runId, '', undefined);
        const store = await d.store();
        // An old notification's Resume, after the run was deleted: say so, not the CLI's "No run … in <folder>".
        if (!(await store.listRuns()).some((l) => l.runId === runId)) {
          void vscode.window.showInformationMessage(deletedRunMessage(runId));
          return;
        }
        const state = await store.readRun(runId);
        // A finished run shows its saved result and calls no model: nothing to pick or unlock.
        const model = state.phase === 'done' ? undefined : await modelForResume(state.config, d.settings(), { keys: d.keys, log: d.log });
        // A Sentry run's sentry_comment needs the token again (never saved with the run): the stored one, else asked for.
        const sentryRun = state.phase !== 'done' && (state.config.options?.crashes ?? '').startsWith('sentry:');
        const sentryToken = sentryRun ? await d.sentryToken.getOrAsk(state.config.options!.crashes!.slice('sentry:'.length)) : undefined;
        await d.manager.resume(runId, state.task, model, {
          ...(await githubAccess(state.config.options?.trackerUrl)),
          ...(sentryToken ? { sentry: { token: sentryToken } } : {}),
        });
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
    async answer(runId, callId, a, by) {
      d.log.info(`[${runId}] ${callId}: ${a} (${by})`);
      if (d.questions.answer(runId, callId, a, by)) return;
      // A run paused in a shared store: the answer is left there, and a worker continues the run.
      if (!d.manager.isActive(runId) && (await d.answerForWorker(runId, callId, a))) return;
      d.questions.preanswer(runId, callId, a, by);
      if (!d.manager.isActive(runId)) await cmds.resumeRun(runId);
    },
    async ask(runId, callId) {
      if (d.approver.showAgain(runId, callId)) return;
      if (d.manager.isActive(runId)) return;
      // A run paused in a shared store is a worker's to continue: asked again, not taken over.
      if (!(await d.askForWorker(runId, callId))) await cmds.resumeRun(runId);
    },
    async reviewChanges(runId) {
      await reviewChanges(await reviewAt(), runId);
    },
    async undo(runId) {
      await undoRun(await reviewAt(), runId, { log: d.log, isActive: (id) => d.manager.isActive(id), changed: () => d.refresh() });
    },
    async diff(runId, rel) {
      await openFileDiff(await reviewAt(), runId, rel);
    },
  };

  /** Answers a question from the Runs view; a run that is not waiting here is resumed and gets the answer when it asks. */
  const answer = async (node: unknown, a: 'approve' | 'deny'): Promise<void> => {
    let target = node as Node | undefined;
    if (target?.type !== 'child' || target.row.kind !== 'question') target = await pickApproval(d);
    if (!target || target.type !== 'child' || target.row.kind !== 'question') return;
    const { runId, callId } = target.row;
    await cmds.answer(runId, callId, a, node === target ? ANSWERED_BY.runsView : ANSWERED_BY.palette);
  };

  const guard =
    <A extends unknown[]>(name: string, f: (...args: A) => Promise<void> | void) =>
    async (...args: A): Promise<void> => {
      try {
        await f(...args);
      } catch (e) {
        // An expected stop (a typed error) is a warning with its message; only an unexpected one is an error with its stack.
        if (e instanceof TriageError) d.log.warn(`${name}: ${e.message}`);
        else d.log.error(`${name}: ${(e as Error).stack ?? String(e)}`);
        if (isWrongWorkspace(e)) await offerSample(e, d);
        else d.present(e, runIdOf(args[0]));
      }
    };

  const register = (id: string, f: (...args: unknown[]) => Promise<void> | void): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, guard(id, f)));
  };

  /**
   * The same Start twice finds the run it started: unfinished, it is resumed with the model it
   * started with (no model pick); done, the user chooses between its saved result (no model
   * call) and a new run. 'handled' when nothing is left to start.
   */
  const latestChoice = async (task: string, ws: string): Promise<'new' | 'handled' | undefined> => {
    const latest = await core.runAdmin().latestRun(await d.store(), { task, workspace: ws });
    if (!latest) return undefined;
    if (latest.phase !== 'done') {
      d.log.info(`start: ${task} has an unfinished run here (${latest.runId}); resuming it`);
      await cmds.resumeRun(latest.runId);
      return 'handled';
    }
    const pick = await vscode.window.showInformationMessage(
      finishedRunMessage(task, latest.runId, latest.updatedAt),
      { modal: true },
      FINISHED_BUTTONS.show,
      FINISHED_BUTTONS.fresh,
    );
    if (pick === FINISHED_BUTTONS.fresh) return 'new';
    if (pick === FINISHED_BUTTONS.show) await cmds.resumeRun(latest.runId);
    return 'handled';
  };

  /** A bundled task works on its own sample: refused at once on another folder (the job refuses it too). */
  const checkSample = async (task: { kind: string; task: string }, ws: string): Promise<void> => {
    if (task.kind === 'catalog') await core.samples().assertSampleCopy(core.catalog().findTask(task.task), ws);
  };

  /** Start's first steps, shared by both start commands: the workspace, the task, and what its latest run here says. */
  const startWhat = async (): Promise<{ ws: string; task: NonNullable<Awaited<ReturnType<typeof pickTask>>>; fresh: boolean } | undefined> => {
    const ws = needWorkspace(d);
    const sentry = d.settings().sentry;
    const task = await pickTask(ws, sentry ? { setting: sentry, token: d.sentryToken } : undefined);
    if (!task) return undefined;
    await checkSample(task, ws);
    const choice = await latestChoice(task.task, ws);
    if (choice === 'handled') return undefined;
    return { ws, task, fresh: choice === 'new' };
  };

  /**
   * The model pick and the model it names. No VS Code language model: one short error with
   * Choose Another Model (the pick again, the task kept) and Set API Key (then the pick again).
   */
  const chooseModel = async (recordedAllowed: boolean): Promise<{ provider: ProviderSetting; model: ModelOption } | undefined> => {
    for (;;) {
      const s = d.settings();
      const provider = await pickModel(s.provider, recordedAllowed);
      if (!provider) return undefined;
      try {
        return { provider, model: await modelForStart(provider, s, { keys: d.keys, log: d.log }) };
      } catch (e) {
        if (!(e instanceof LanguageModelUnavailableError)) throw e;
        d.log.warn(`start: ${e.message}`);
        const v = modelUnavailableView(e, recordedAllowed);
        const pick = await vscode.window.showErrorMessage(v.message, ...v.buttons);
        if (pick === MODEL_BUTTONS.setKey) await d.keys.prompt();
        else if (pick !== MODEL_BUTTONS.choose) return undefined;
      }
    }
  };

  register('durableTriage.start', async () => {
    const what = await startWhat();
    if (!what) return;
    const { ws, task } = what;
    const s = d.settings();
    const picked = await chooseModel(task.kind === 'catalog');
    if (!picked) return;
    const { provider, model } = picked;
    const tracker = await chooseTracker(ws, s, task.kind === 'folder');
    if (!tracker) return;
    const access = await githubAccess(tracker.trackerUrl);
    d.log.info(
      `start: ${task.task}${task.kind === 'folder' ? ` (crash reports in ${task.crashes})` : ''} with ${provider} in ${ws}, issues to ${tracker.trackerUrl ?? 'the embedded tracker'}${task.kind === 'folder' && s.pullRequests ? ', a pull request per cause' : ''}`,
    );
    await d.manager.start(task.task, ws, model, {
      ...(task.kind === 'folder'
        ? {
            crashes: task.crashes,
            ...(task.leaveOut.length ? { leaveOut: task.leaveOut } : {}),
            ...(task.sentry ? { sentry: task.sentry } : {}),
            ...(s.pullRequests ? { pullRequests: s.pullRequests } : {}),
          }
        : {}),
      ...(what.fresh ? { fresh: true } : {}),
      ...tracker,
      ...access,
    });
  });

  register('durableTriage.startRecording', async () => {
    const what = await startWhat();
    if (!what) return;
    const { ws, task } = what;
    const s = d.settings();
    // Recording needs a live model: the recorded demo is not offered.
    const picked = await chooseModel(false);
    if (!picked) return;
    const { provider, model } = picked;
    const target = await vscode.window.showSaveDialog({
      title: 'Save the run as a recording',
      defaultUri: vscode.Uri.file(`${ws}/${task.task}.recording.json`),
      filters: { Recording: ['json'] },
    });
    if (!target) return;
    const tracker = await chooseTracker(ws, s, task.kind === 'folder');
    if (!tracker) return;
    const access = await githubAccess(tracker.trackerUrl);
    d.log.info(`start (recording to ${target.fsPath}): ${task.task} with ${provider} in ${ws}, issues to ${tracker.trackerUrl ?? 'the embedded tracker'}`);
    await d.manager.start(task.task, ws, model, {
      ...(task.kind === 'folder'
        ? {
            crashes: task.crashes,
            ...(task.leaveOut.length ? { leaveOut: task.leaveOut } : {}),
            ...(task.sentry ? { sentry: task.sentry } : {}),
            ...(s.pullRequests ? { pullRequests: s.pullRequests } : {}),
          }
        : {}),
      recordTo: target.fsPath,
      ...(what.fresh ? { fresh: true } : {}),
      ...tracker,
      ...access,
    });
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
          : (
              await vscode.window.showQuickPick(
                active.map((r) => ({ label: r.runId!, description: `${r.task} · turn ${r.turn} · ${formatDollars(r.dollars)}` })),
                { title: 'Durable Triage: Cancel Run' },
              )
            )?.label;
    }
    if (runId && !d.manager.cancel(runId)) void vscode.window.showInformationMessage(`Durable Triage: run ${runId} is not running in this window.`);
  });

  register('durableTriage.approve', (node) => answer(node, 'approve'));
  register('durableTriage.deny', (node) => answer(node, 'deny'));

  register('durableTriage.showQuestion', async (node) => {
    let n = node as Node | undefined;
    if (n?.type !== 'child' || n.row.kind !== 'question') n = await pickApproval(d, true);
    if (n?.type !== 'child' || n.row.kind !== 'question') return;
    await cmds.ask(n.row.runId, n.row.callId);
  });

  const runOf = async (node: unknown, title: string): Promise<string | undefined> => runIdOf(node) ?? (await pickRun(d, title, () => true));

  register('durableTriage.openRun', async (node) => {
    const runId = typeof node === 'string' ? node : await runOf(node, 'Open Run');
    if (runId) d.openRun(runId);
  });

  register('durableTriage.reviewChanges', async (node) => {
    const runId = typeof node === 'string' ? node : await runOf(node, 'Review Changes');
    if (runId) await cmds.reviewChanges(runId);
  });

  register('durableTriage.undoRun', async (node) => {
    const runId =
      typeof node === 'string'
        ? node
        : (runIdOf(node) ??
          (await pickRun(d, "Undo Run's Changes", (s, locked) => !locked && !d.manager.isActive(s.runId) && Object.keys(s.files ?? {}).length > 0, undoRows)));
    if (runId) await cmds.undo(runId);
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
    await core.runAdmin().abandonRun(await d.store(), runId);
    d.log.info(`[${runId}] deleted`);
    d.refresh();
  });

  register('durableTriage.setApiKey', () => cmds.setApiKey());
  register('durableTriage.setStorePassword', () => d.setStorePassword());
  register('durableTriage.setSentryToken', async () => {
    if ((await d.sentryToken.prompt()) !== undefined) void vscode.window.showInformationMessage('Durable Triage: the Sentry token is stored.');
  });
  register('durableTriage.showLog', () => d.log.show(true));
  register('durableTriage.refreshRuns', () => d.refresh());
  return cmds;
}

/**
 * From the palette: the questions asked now in this window, else those saved in paused runs,
 * each shown by what it acts on (the issue's title, the file), never by its call ID. A question
 * of a run open in another window is marked so, and picking it says where it is asked.
 */
async function pickApproval(d: CommandDeps, ladderToo = false): Promise<Node | undefined> {
  const asked = d.questions.list();
  const wantsSaved = !asked.some((q) => q.kind === 'approval' || (ladderToo && q.kind === 'ladder'));
  const ws = d.workspace();
  const runs = wantsSaved ? await core.runAdmin().unfinishedRuns(await d.store(), ws ? { workspace: ws } : {}) : [];
  const qs = approvalChoices(
    asked,
    runs.map((l) => ({
      runId: l.runId,
      // This window's own runs hold their lock too: only a lock held elsewhere means "asked in another window".
      locked: l.locked && !d.manager.isActive(l.runId),
      pending: (l.state?.pending ?? []).map((p) => ({
        callId: p.callId,
        tool: p.tool,
        kind: p.kind,
        title: describeCall({ id: p.callId, name: p.tool, args: p.args }).title,
      })),
    })),
    ladderToo,
  );
  if (qs.length === 0) {
    void vscode.window.showInformationMessage('Durable Triage: no approval is waiting.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    qs.map((q) => ({ ...approvalChoiceRow(q), q })),
    { title: 'Durable Triage: which question?', matchOnDescription: true },
  );
  if (!pick) return undefined;
  if (pick.q.elsewhere) {
    void vscode.window.showInformationMessage(askedElsewhereMessage(pick.q));
    return undefined;
  }
  const { runId, callId, tool, kind } = pick.q;
  return {
    type: 'child',
    row: {
      kind: 'question',
      question: kind,
      runId,
      callId,
      tool,
      label: '',
      description: '',
      contextValue: kind === 'approval' ? 'question-approval' : 'question-ladder',
    },
  };
}

/** The core's WrongWorkspaceError (told by its shape, so activation does not load the task catalog). */
function isWrongWorkspace(e: unknown): e is WrongWorkspaceError {
  return e instanceof BadInputError && e.name === 'WrongWorkspaceError' && typeof (e as Partial<WrongWorkspaceError>).sample === 'string';
}

/** A bundled task started on a folder that is not its sample: offer a copy of the sample, opened in a new window. */
async function offerSample(e: WrongWorkspaceError, d: CommandDeps): Promise<void> {
  const OPEN = 'Open a Copy of the Sample…';
  const pick = await vscode.window.showErrorMessage(noLinks(`Durable Triage: ${e.message}`), OPEN);
  if (pick !== OPEN) return;
  const where = await vscode.window.showOpenDialog({
    title: `Durable Triage: where should the copy of ${e.task}'s sample go?`,
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    defaultUri: vscode.Uri.file(sampleCopyStart(d.workspace(), os.homedir())),
    openLabel: 'Copy the Sample Here',
  });
  if (!where?.[0]) return;
  const samples = core.samples();
  const dest = await samples.copySample(core.catalog().findTask(e.task), where[0].fsPath);
  d.log.info(`copied the sample of ${e.task} to ${dest}; opening it in a new window`);
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(dest), { forceNewWindow: true });
}
