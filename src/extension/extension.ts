/**
 * Durable Triage in VS Code: a thin layer over the durable core and the triage job.
 * Activation stays cheap: it registers the commands, the Runs view and the documents, and
 * lists this workspace's unfinished runs (the core loads on first use; see lazy-modules.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { QuestionRegistry } from './logic/questions';
import { ANSWERED_BY, NotificationApprover, type PersonAnswer } from './approver';
import { registerCommands } from './commands';
import { registerAgentSurfaces } from './agent-surfaces';
import { SECTION, settings, stateDirectory, workspaceFolder, workspaceIdentity } from './config';
import { WorkspaceSettingsNotices } from './workspace-settings';
import { editorMcpConfig } from './mcp-config';
import { noLinks } from './logic/no-links';
import { waitingBadge } from './logic/run-rows';
import { reopenRestoredReviews } from './reopen-reviews';
import { changedKeys, paletteContext, questionsInPalette, type ContextKey } from './logic/palette-context';
import { registerDocs } from './docs';
import { RunManager } from './run-manager';
import { RUNS_VIEW, RunsView } from './runs-view';
import { ApiKeys } from './secrets';
import { SentryToken } from './sentry-token';
import { RunStatusBar } from './status-bar';
import { presentStop, type StopDeps } from './stops';
import { startupScan } from './startup';
import { WindowStore } from './window-store';
import { redactUrl } from '../store/store-url';
import { WorkspaceChangedError } from '../core/errors';
import { answerForWorker, askAgainForWorker, watchShared } from './shared-store';
import type { StoreQuestion } from './logic/store-questions';
import { RunPanels } from './run-panels';

export const LOG_NAME = 'Durable Triage';
/** How long deactivation waits for runs to save and release their locks. */
const STOP_WAIT_MS = 4000;
/** Logged when a durableTriage setting changed and the settings were read again (the real-editor tests wait for it). */
const SETTINGS_READ_AGAIN = 'settings changed: read again';

let manager: RunManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel(LOG_NAME, { log: true });
  context.subscriptions.push(log);
  const current = (): ReturnType<typeof settings>['settings'] => settings(context.globalState).settings;
  const stateDir = (): string => stateDirectory(context, current());
  const runStore = new WindowStore(current, stateDir, context.secrets);
  context.subscriptions.push(runStore);
  const store = () => runStore.get();
  const shared = (): boolean => runStore.shared;
  /** How the window names its store in document addresses: the folder, or the shared store's URL without password. */
  const storeName = (): string => {
    const url = current().store;
    return url === undefined ? stateDir() : redactUrl(url);
  };
  const docs = registerDocs(context, store);
  const questions = new QuestionRegistry<PersonAnswer>();
  const approver = new NotificationApprover({ questions, docs: docs.memory, log });
  const statusBar = new RunStatusBar();
  const keys = new ApiKeys(context.secrets);
  const sentryToken = new SentryToken(context.secrets);
  context.subscriptions.push(statusBar);

  // Created below, after the parts they need; `changed` may be called before that.
  let view: RunsView | undefined;
  // eslint-disable-next-line prefer-const
  let panels: RunPanels | undefined;
  const changed = (runId?: string): void => {
    view?.refresh();
    panels?.refresh(runId);
    if (runId) docs.refreshState(storeName(), runId);
  };
  let resume: (runId: string) => void = () => undefined;
  let openCheckpoint: (runId: string) => void = () => undefined;
  let setApiKey: () => void = () => undefined;
  const stopDeps: StopDeps = {
    log,
    stateDir,
    store,
    shared,
    resume: (id) => resume(id),
    openCheckpoint: (id) => openCheckpoint(id),
    setApiKey: () => setApiKey(),
    changed: () => changed(),
  };
  // Runs stopped because files they wrote changed: their saved question is not shown as waiting until they are resumed.
  const stoppedOnChanges = new Set<string>();
  const present = (e: unknown, runId?: string): void => {
    if (e instanceof WorkspaceChangedError) {
      stoppedOnChanges.add(e.runId);
      changed(e.runId);
    }
    presentStop(e, runId, stopDeps);
  };
  let openRun: (runId: string, o?: { preserveFocus?: boolean }) => void = () => undefined;
  let act: (what: 'open' | 'review' | 'ask', runId: string, callId?: string) => void = () => undefined;
  const runs = new RunManager({
    log,
    approver,
    questions,
    statusBar,
    settings: current,
    stateDir,
    store,
    changed,
    present,
    opened: (id) => {
      if (stoppedOnChanges.delete(id)) changed(id);
      openRun(id, { preserveFocus: true });
    },
    act: (what, id, callId) => act(what, id, callId),
    mcp: () => editorMcpConfig({ settings: current, globalState: context.globalState, workspace: workspaceIdentity, folder: workspaceFolder, log }),
  });
  manager = runs;

  // The palette's context keys (menus.commandPalette `when` clauses), set again only when one changes.
  let paletteKeys: Partial<Record<ContextKey, boolean>> = {};
  const setPaletteContext = (now: Record<ContextKey, boolean>): void => {
    for (const k of changedKeys(paletteKeys, now)) void vscode.commands.executeCommand('setContext', k, now[k]);
    paletteKeys = now;
  };
  const tree = vscode.window.createTreeView(RUNS_VIEW, {
    treeDataProvider: (view = new RunsView({
      stateDir,
      store,
      shared,
      workspace: workspaceFolder,
      isActive: (id) => runs.isActive(id),
      questions,
      log,
      stoppedOnChanges: (id) => stoppedOnChanges.has(id),
      onWaiting: (n, mine) => {
        tree.badge = waitingBadge(n);
        setPaletteContext(
          paletteContext({
            runs: mine.map((l) => ({ runId: l.runId, phase: l.state?.phase, locked: l.locked })),
            waiting: questionsInPalette(
              n,
              mine.filter((l) => !runs.isActive(l.runId)).map((l) => ({ locked: l.locked, pending: l.state?.pending?.length ?? 0 })),
            ),
            activeHere: runs.list().flatMap((r) => (r.runId ? [r.runId] : [])),
          }),
        );
      },
    })),
  });
  // The badge shows before the Runs view is ever opened (the view lists runs only while shown).
  void view.countWaiting();
  // While a run waits for a person the status bar says so, whichever window part the question is in,
  // and whether the run is this window's or paused in a shared store for a worker.
  let storeWaiting: StoreQuestion[] = [];
  const updateStatus = (): void => {
    const open = [...questions.list().map((q) => ({ runId: q.runId, callId: q.callId, title: q.title ?? q.tool })), ...storeWaiting];
    statusBar.ask(open[0] ? { runId: open[0].runId, callId: open[0].callId, title: open[0].title } : undefined, open.length);
  };
  const questionsChanged = (): void => {
    updateStatus();
    changed();
  };
  context.subscriptions.push(
    view,
    tree,
    questions.onDidChange(questionsChanged),
    runs.onDidChange((id) => panels?.refresh(id)),
  );

  const cmds = registerCommands(context, {
    log,
    manager: runs,
    approver,
    questions,
    keys,
    sentryToken,
    settings: current,
    stateDir: storeName,
    workspace: workspaceFolder,
    refresh: () => changed(),
    present,
    openRun: (id, o) => openRun(id, o),
    store,
    setStorePassword: () => runStore.promptPassword(),
    answerForWorker: async (runId, callId, a) => answerForWorker(await store(), runId, callId, a, log),
    askForWorker: async (runId, callId) => askAgainForWorker(await store(), runId, callId, docs.memory, log),
  });
  // Language Model Tools, @triage and the MCP server definition, where the editor has them.
  registerAgentSurfaces(context, { log, manager: runs, cmds, questions, keys, settings: current, store, stateDir, workspace: workspaceFolder });
  panels = new RunPanels({
    extensionUri: context.extensionUri,
    log,
    stateDir,
    store,
    isActive: (id) => runs.isActive(id),
    activity: (id) => runs.activity(id),
    answer: (id, callId, a) => cmds.answer(id, callId, a, ANSWERED_BY.panel),
    ask: (id, callId) => cmds.ask(id, callId),
    diff: (id, p) => cmds.diff(id, p),
    command: async (c, id) => {
      switch (c) {
        case 'review':
          return cmds.reviewChanges(id);
        case 'undo':
          return cmds.undo(id);
        case 'cancel':
          if (!runs.cancel(id)) void vscode.window.showInformationMessage(`Durable Triage: run ${id} is not running in this window.`);
          return;
        case 'resume':
          return cmds.resumeRun(id);
        case 'checkpoint':
          return cmds.openCheckpoint(id);
        case 'log':
          log.show(true);
          return;
      }
    },
  });
  context.subscriptions.push(panels);
  openRun = (id, o) => panels?.show(id, o);
  act = (what, id, callId) => {
    if (what === 'open') openRun(id);
    else if (what === 'ask') void (callId ? cmds.ask(id, callId) : Promise.resolve()).catch((e: Error) => log.warn(`show the question of ${id}: ${e.message}`));
    else void cmds.reviewChanges(id).catch((e: Error) => log.warn(`review changes of ${id}: ${e.message}`));
  };
  resume = (id) => void cmds.resumeRun(id);
  openCheckpoint = (id) => void cmds.openCheckpoint(id).catch((e: Error) => log.error(`open checkpoint ${id}: ${e.message}`));
  setApiKey = () => void cmds.setApiKey();

  let watcher: vscode.Disposable | undefined;
  const settingsChanged = (): void => {
    warnProblems();
    watcher?.dispose();
    watcher = watchRuns(stateDir(), () => changed());
    changed();
  };
  const notices = new WorkspaceSettingsNotices(context.globalState, workspaceIdentity, log, settingsChanged);
  const warnProblems = (): void => {
    const { problems, setAside } = settings(context.globalState);
    for (const p of problems) log.warn(p);
    if (problems.length) void vscode.window.showWarningMessage(noLinks(`Durable Triage: ${problems.join(' ')}`));
    notices.tell(setAside);
  };
  warnProblems();
  watcher = watchRuns(stateDir(), () => changed());
  context.subscriptions.push(
    watchShared({
      store,
      shared,
      isActive: (id) => runs.isActive(id),
      changed: () => changed(),
      docs: docs.memory,
      log,
      waiting: (qs) => {
        storeWaiting = qs;
        updateStatus();
      },
    }),
  );
  context.subscriptions.push(
    { dispose: () => watcher?.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      log.info(SETTINGS_READ_AGAIN);
      settingsChanged();
    }),
  );

  void reopenRestoredReviews({ store, reviewChanges: (id) => cmds.reviewChanges(id), log }).catch((e: Error) =>
    log.warn(`could not reopen the restored Review Changes tabs: ${e.message}`),
  );

  const ws = workspaceFolder();
  // On a shared store, interrupted runs are the workers' to continue; paused ones are asked about by watchShared.
  if (ws && !shared()) {
    const dir = stateDir();
    void startupScan({
      log,
      stateDir: dir,
      workspace: ws,
      activeRunIds: () => runs.activeRunIds(),
      resume: (id) => resume(id),
      openRun: (id) => openRun(id),
    }).catch((e: Error) => log.error(`startup: could not list the runs in ${dir}: ${e.stack ?? e.message}`));
  }
}

/** Cancels this window's runs so each saves where it stopped and releases its lock before the host exits. */
export async function deactivate(): Promise<void> {
  await manager?.stopAll(STOP_WAIT_MS);
  manager = undefined;
}

/** Refreshes the Runs view when a checkpoint changes (another window, the CLI). */
function watchRuns(stateDir: string, onChange: () => void): vscode.Disposable {
  const ws = [
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.join(stateDir, 'runs')), '*.{json,jsonl}')),
    // The event record: another window's run moving, an undo.
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.join(stateDir, 'events')), '*.jsonl')),
  ];
  for (const w of ws) {
    w.onDidCreate(onChange);
    w.onDidChange(onChange);
    w.onDidDelete(onChange);
  }
  return vscode.Disposable.from(...ws);
}
