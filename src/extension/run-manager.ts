/**
 * Runs in this window: starts and resumes them through the triage job with a cancellable
 * progress notification, the status bar item and the log; cancelling aborts the run, which
 * saves where it stopped. Every stop is handed to `present` once the progress is closed.
 */
import * as vscode from 'vscode';
import type { TriageOutcome, TriageRunOptions } from '../triage/job';
import type { LoopEvent } from '../agent/loop';
import type { Limits } from '../agent/budget';
import type { RunState } from '../store/state';
import { TOOL_ACTED, type CrashHook } from '../store/crash-points';
import { CancelledError, TriageError } from '../core/errors';
import type { ExtensionSettings } from './logic/settings';
import { eventLine, progressOf } from './logic/event-log';
import { DONE_BUTTONS, HERE_BUTTONS, alreadyHereMessage, doneMessage, openRunLink, pausedMessage, progressText, progressTitle } from './logic/texts';
import { activityOf } from './logic/activity';
import type { NotificationApprover, Questions } from './approver';
import type { RunStatusBar } from './status-bar';
import * as core from './lazy-modules';
import { bundledRipgrepPaths } from '../tools/search/find-ripgrep';
import type { RunStore } from '../store/run-store';
import type { McpConfig } from '../mcp/config';

export type ModelOption = TriageRunOptions['model'];

/** What a start may add: the crash folder of the crash-folder task, a recording to write, a new run on purpose, the tracker and its GitHub token, pull requests. */
export type StartExtras = Pick<
  TriageRunOptions,
  'crashes' | 'leaveOut' | 'sentry' | 'recordTo' | 'fresh' | 'trackerUrl' | 'githubToken' | 'githubApiUrl' | 'pullRequests'
>;

/** What a resume may add: the GitHub token of a run filing into GitHub, the Sentry token of a Sentry run (neither ever saved). */
export type ResumeExtras = Pick<TriageRunOptions, 'githubToken' | 'githubApiUrl' | 'sentry'>;

interface ActiveRun {
  runId?: string;
  task: string;
  ac: AbortController;
  turn: number;
  dollars: number;
  movedAt: number;
  /** What it does now, in words ("waiting for the model", "Patch src/todos.js"). */
  doing: string;
  done: Promise<void>;
}

export interface RunManagerDeps {
  log: vscode.LogOutputChannel;
  approver: NotificationApprover;
  questions: Questions;
  statusBar: RunStatusBar;
  settings: () => ExtensionSettings;
  stateDir: () => string;
  /** The run store this window works on (the state folder's, or the shared PostgreSQL store). */
  store: () => Promise<RunStore>;
  /** The runs changed (saved, opened, finished): refresh the Runs view. */
  changed: (runId?: string) => void;
  /** Shows a stop (typed error) of a run, with its ways on. */
  present: (e: unknown, runId?: string) => void;
  /** A run was opened here (started or resumed): e.g. show its Run panel. */
  opened?: (runId: string) => void;
  /** The MCP servers a run may use (read, and the workspace's file asked about, as the run starts or resumes). */
  mcp: () => Promise<McpConfig>;
  /** Runs a command the finished notification offers (Open Run, Review Changes) on the run. */
  act?: (what: 'open' | 'review' | 'ask', runId: string, callId?: string) => void;
}

type Common = Omit<TriageRunOptions, 'task' | 'workspace'>;

export class RunManager {
  private readonly active = new Set<ActiveRun>();
  private readonly moved = new vscode.EventEmitter<string | undefined>();
  /** A run here moved (an event of its loop, opened, finished): its ID, when known. */
  readonly onDidChange = this.moved.event;

  constructor(private readonly d: RunManagerDeps) {}

  /** What an active run does now, in words; undefined when it is not running here. */
  activity(runId: string): string | undefined {
    return [...this.active].find((r) => r.runId === runId)?.doing;
  }

  activeRunIds(): Set<string> {
    return new Set([...this.active].map((r) => r.runId).filter((id): id is string => id !== undefined));
  }

  isActive(runId: string): boolean {
    return [...this.active].some((r) => r.runId === runId);
  }

  /** Starts the task in the workspace folder, or resumes the task's unfinished run there. */
  start(task: string, workspace: string, model: ModelOption, extra: StartExtras = {}): Promise<void> {
    const here = [...this.active].find((r) => r.task === task);
    if (here) {
      this.alreadyHere(here.runId ? `run ${here.runId} (${task})` : `a ${task} run`, here.runId);
      return Promise.resolve();
    }
    return this.drive(task, undefined, (common) => {
      const o: TriageRunOptions = { ...common, ...extra, task, workspace };
      if (model !== undefined) o.model = model;
      return core.job().runTriage(o);
    });
  }

  /** Resumes a run by ID with the model it was started with (built by the caller). */
  resume(runId: string, task: string, model: ModelOption, extra: ResumeExtras = {}): Promise<void> {
    if (this.isActive(runId)) {
      this.alreadyHere(`run ${runId}`, runId);
      return Promise.resolve();
    }
    return this.drive(task, runId, (common) => core.job().resumeTriage({ ...common, ...extra, runId, ...(model !== undefined ? { model } : {}) }));
  }

  /** The run is open here already: running, or waiting for a person's answer (then offer its question). */
  private alreadyHere(what: string, runId: string | undefined): void {
    const q = runId ? this.d.questions.list(runId)[0] : undefined;
    const { message, buttons } = alreadyHereMessage(what, q ? (q.title ?? q.tool) : undefined);
    void Promise.resolve(vscode.window.showInformationMessage(message, ...buttons)).then((pick) => {
      if (!runId) return;
      if (pick === HERE_BUTTONS.open) this.d.act?.('open', runId);
      else if (pick === HERE_BUTTONS.question && q) this.d.act?.('ask', runId, q.callId);
    });
  }

  /** Cancels an active run (it saves and stops); false when it is not running here. */
  cancel(runId: string): boolean {
    const r = [...this.active].find((x) => x.runId === runId);
    if (!r) return false;
    this.d.log.info(`[${runId}] cancel requested`);
    r.ac.abort(new CancelledError(runId));
    return true;
  }

  /** Active runs, for a picker. */
  list(): { runId?: string; task: string; turn: number; dollars: number }[] {
    return [...this.active].map(({ runId, task, turn, dollars }) => ({ ...(runId ? { runId } : {}), task, turn, dollars }));
  }

  /** Aborts every run and waits (up to `ms`) for them to save and release their locks: on deactivate. */
  async stopAll(ms: number): Promise<void> {
    const runs = [...this.active];
    for (const r of runs) r.ac.abort(new CancelledError(r.runId ?? r.task, 'window-closed'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(runs.map((r) => r.done)), new Promise<void>((res) => (timer = setTimeout(res, ms)))]);
    if (timer) clearTimeout(timer);
  }

  private drive(task: string, knownRunId: string | undefined, call: (common: Common) => Promise<TriageOutcome>): Promise<void> {
    const run: ActiveRun = { task, ac: new AbortController(), turn: 0, dollars: 0, movedAt: Date.now(), doing: 'starting', done: Promise.resolve() };
    if (knownRunId) run.runId = knownRunId;
    this.active.add(run);
    this.updateStatus();
    let outcome: TriageOutcome | undefined;
    let failure: unknown;
    let failed = false;
    run.done = Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: progressTitle(task), cancellable: true }, async (progress, token) => {
        token.onCancellationRequested(() => {
          if (!run.ac.signal.aborted) {
            this.d.log.info(`[${run.runId ?? task}] cancelled from the progress notification`);
            run.ac.abort(new CancelledError(run.runId ?? task));
          }
        });
        progress.report({ message: knownRunId ? `resuming ${knownRunId}` : 'starting' });
        const moved = (): void => {
          run.movedAt = Date.now();
          progress.report({ message: `${progressText(run.turn, run.dollars, run.doing)}${run.runId ? ` · ${openRunLink(run.runId)}` : ''}` });
          this.updateStatus();
          this.moved.fire(run.runId);
        };
        try {
          outcome = await call(await this.common(run, moved));
        } catch (e) {
          failed = true;
          failure = e;
        }
      }),
    ).then(() => this.finish(run, outcome, failed, failure));
    return run.done;
  }

  private async common(run: ActiveRun, moved: () => void): Promise<Common> {
    const s = this.d.settings();
    const limits: Limits = { ...s.limits };
    const o: Common = {
      runStore: await this.d.store(),
      approver: this.d.approver,
      keys: s.keys,
      approvalTools: s.approvalTools,
      limits,
      signal: run.ac.signal,
      prices: s.prices,
      // search_files runs the editor's own ripgrep when there is no DURABLE_TRIAGE_RG
      ripgrep: { bundled: bundledRipgrepPaths(vscode.env.appRoot) },
      ...(s.testCommand ? { testCommand: s.testCommand } : {}),
      mcp: await this.d.mcp(),
      onRunOpened: (runId: string, state: RunState) =>
        this.safely(runId, () => {
          run.runId = runId;
          run.turn = state.turns;
          run.dollars = state.usage.dollars;
          this.d.log.info(
            `[${runId}] opened (${state.task}): phase ${state.phase}, turn ${state.turns}, restarts ${state.restarts}, ${state.config.provider}/${state.config.model}, workspace ${state.config.workspace}`,
          );
          run.doing = state.phase === 'done' ? 'finished' : 'starting';
          moved();
          this.d.changed(runId);
          this.d.opened?.(runId);
        }),
      onEvent: (e: LoopEvent) =>
        this.safely(run.runId ?? run.task, () => {
          const id = run.runId ?? run.task;
          const line = eventLine(id, e);
          if (line.level === 'warn') this.d.log.warn(line.text);
          else this.d.log.info(line.text);
          const p = progressOf(e);
          if (p) {
            run.turn = p.turn;
            if (p.dollars !== undefined) run.dollars = p.dollars;
          }
          const doing = activityOf(e);
          if (doing) run.doing = doing;
          if (p || doing) moved();
          else this.moved.fire(run.runId);
          if (e.type === 'saved') this.d.changed(run.runId);
        }),
    };
    const crash = dieAfter(s.dieAfterTool, this.d.log);
    if (crash) o.crash = crash;
    return o;
  }

  /**
   * Runs a UI update of the run's progress; never lets it fail the run. While the window reloads,
   * every call to the editor throws ("Channel has been closed"): the run must stop as cancelled by
   * the closing window (stopAll), not on that error.
   */
  private safely(id: string, f: () => void): void {
    try {
      f();
    } catch (e) {
      this.d.log.warn(`[${id}] could not update the editor: ${(e as Error).message}`);
    }
  }

  private finish(run: ActiveRun, outcome: TriageOutcome | undefined, failed: boolean, failure: unknown): void {
    this.active.delete(run);
    const id = outcome?.runId ?? run.runId;
    if (id) this.d.questions.closeRun(id, 'later');
    this.updateStatus();
    this.d.changed(id);
    this.moved.fire(id);
    if (failed) {
      const aborted = run.ac.signal.aborted;
      // An expected stop (a typed error) is a warning with its message; only an unexpected one is an error with its stack.
      if (aborted) this.d.log.info(`[${id ?? run.task}] stopped: ${failure instanceof Error ? failure.message : String(failure)}`);
      else if (failure instanceof TriageError) this.d.log.warn(`[${id ?? run.task}] stopped: ${failure.message}`);
      else this.d.log.error(`[${id ?? run.task}] stopped: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`);
      this.d.present(aborted && !(failure instanceof CancelledError) && id ? new CancelledError(id) : failure, id);
      return;
    }
    if (!outcome) return;
    const r = outcome.result;
    this.d.log.info(
      `[${outcome.runId}] ${r.phase} after ${r.turns} turns, ${r.restarts} restarts, $${r.usage.dollars.toFixed(4)}; ${outcome.modelCalls} model call(s) made by this window`,
    );
    for (const c of outcome.checks ?? [])
      this.d.log[c.passed ? 'info' : 'warn'](`[${outcome.runId}] check ${c.passed ? 'passed' : 'FAILED'}: ${c.name}${c.passed ? '' : ` (${c.detail})`}`);
    if (r.phase === 'done') {
      void this.finished(outcome);
    } else if (run.ac.signal.aborted) {
      this.d.present(new CancelledError(outcome.runId), outcome.runId);
    } else if (r.phase === 'paused') {
      void vscode.window.showInformationMessage(pausedMessage(outcome.runId, r.pending ?? []));
    }
  }

  /** The finished notification: a warning when a check failed, with the failures one click away. */
  private async finished(outcome: TriageOutcome): Promise<void> {
    const msg = doneMessage(outcome.result.task, outcome.runId, outcome.checks, outcome.issues);
    const failing = (outcome.checks ?? []).some((c) => !c.passed);
    const pick = failing
      ? await vscode.window.showWarningMessage(msg, DONE_BUTTONS.failures, DONE_BUTTONS.review)
      : await vscode.window.showInformationMessage(msg, DONE_BUTTONS.open, DONE_BUTTONS.review);
    if (pick === DONE_BUTTONS.open || pick === DONE_BUTTONS.failures) this.d.act?.('open', outcome.runId);
    else if (pick === DONE_BUTTONS.review) this.d.act?.('review', outcome.runId);
  }

  private updateStatus(): void {
    const runs = [...this.active].sort((a, b) => b.movedAt - a.movedAt);
    this.d.statusBar.show(runs[0], runs.length);
  }
}

/** durableTriage.debug.dieAfterTool: SIGKILL this extension host right after the first call of `tool` returns, before its result is saved. */
function dieAfter(tool: string | undefined, log: vscode.LogOutputChannel): CrashHook | undefined {
  if (!tool) return undefined;
  return (point, detail) => {
    if (point !== TOOL_ACTED || detail?.tool !== tool) return;
    log.warn(`durableTriage.debug.dieAfterTool: ${tool} (${detail.callId ?? '?'}) returned; killing the extension host (SIGKILL) before its result is saved`);
    process.kill(process.pid, 'SIGKILL');
  };
}
