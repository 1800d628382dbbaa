/**
 * Runs in the background of a long-lived process (`triage mcp`): started or resumed on request,
 * watched by status, answered by another agent. Every question a run asks is answered "later"
 * unless an answer is already kept for it (PreanswerApprover), so the run pauses with the
 * question saved in its state, durable across this process's death; an answer is kept (the first
 * one wins) and the run resumed in the background to be asked again and get it.
 */
import { BadInputError } from '../core/errors';
import type { RunStore } from '../store/run-store';
import type { Limits } from '../agent/budget';
import type { ModelChoice } from '../model/factory';
import { runTriage, resumeTriage, type TriageOutcome, type TriageRunOptions } from './job';
import { latestRun } from './run-admin';
import { runInfo, type RunInfo } from './runinfo';
import { PreanswerApprover, type PersonAnswer } from './preanswer-approver';
import { CRASH_FOLDER_TASK } from './tasks/crash-folder';
import * as path from 'node:path';

export interface RunHostOptions {
  store: RunStore;
  /** The model new runs use (default: the recorded model); a resumed run keeps the one it started with. */
  model?: ModelChoice;
  approvalTools?: readonly string[];
  limits?: Limits;
  githubToken?: string;
  githubApiUrl?: string;
}

export interface StartRequest {
  task: string;
  workspace?: string;
  crashes?: string;
  tracker?: string;
  keys?: boolean;
  testCommand?: string;
  /** Start a new run even when the task has one (default: resume or show the latest). */
  fresh?: boolean;
}

/** What this process knows of a run beyond its saved state. */
export interface LiveRun {
  /** running: a drive is under way here; stopped: none is (see the saved phase). */
  here: 'running' | 'stopped';
  /** The last drive's failure, when it failed. */
  error?: string;
  /** The last drive's issues (filed by the run). */
  issues?: { number: number; title: string; cause: string; url?: string }[];
  answer?: string;
}

export interface RunStatus extends RunInfo {
  live?: LiveRun;
}

interface Live {
  promise: Promise<void>;
  info: LiveRun;
}

export class RunHost {
  private readonly approver = new PreanswerApprover();
  private readonly live = new Map<string, Live>();
  private readonly aborter = new AbortController();

  constructor(private readonly o: RunHostOptions) {}

  /** Starts (or resumes, or finds running here) the task's run; resolves with its ID once it is opened. */
  async start(r: StartRequest): Promise<{ runId: string; runningHere: boolean }> {
    const workspace = r.workspace ? path.resolve(r.workspace) : undefined;
    if (!r.fresh) {
      const latest = await latestRun(this.o.store, { task: r.task, ...(workspace ? { workspace } : {}) });
      if (latest && this.live.get(latest.runId)?.info.here === 'running') return { runId: latest.runId, runningHere: true };
    }
    if (r.task === CRASH_FOLDER_TASK && !workspace) throw new BadInputError(`The ${CRASH_FOLDER_TASK} task works in your own folder: give its workspace.`);
    return {
      runId: await this.drive((onRunOpened) =>
        runTriage({
          ...this.common(),
          onRunOpened,
          task: r.task,
          ...(workspace ? { workspace } : {}),
          ...(r.crashes ? { crashes: r.crashes } : {}),
          ...(r.tracker ? { trackerUrl: r.tracker } : {}),
          ...(r.keys !== undefined ? { keys: r.keys } : {}),
          ...(r.testCommand ? { testCommand: r.testCommand } : {}),
          ...(this.o.model ? { model: this.o.model } : {}),
          fresh: r.fresh === true,
        }),
      ),
      runningHere: false,
    };
  }

  /** Resumes a run by ID in the background (a run running here already: nothing new). */
  async resume(runId: string): Promise<{ runId: string; runningHere: boolean }> {
    if (this.live.get(runId)?.info.here === 'running') return { runId, runningHere: true };
    await this.known(runId);
    return { runId: await this.drive((onRunOpened) => resumeTriage({ ...this.common(), onRunOpened, runId })), runningHere: false };
  }

  /** Every run of the store (or one), with what this process knows of it. */
  async status(runId?: string): Promise<RunStatus[]> {
    const runs = (await this.o.store.listRuns()).filter((l) => runId === undefined || l.runId === runId);
    if (runId !== undefined && runs.length === 0) throw this.noRun(runId);
    return runs.map((l) => {
      const info: RunStatus = runInfo(l);
      const live = this.live.get(l.runId);
      if (live) info.live = live.info;
      return info;
    });
  }

  /**
   * Answers the question run `runId` waits on for call `callId`: kept (the first answer wins) and the
   * run resumed here to be asked again. Refused when the run does not wait on such a question.
   */
  async answer(runId: string, callId: string, a: PersonAnswer): Promise<void> {
    const kind = typeof a === 'string' ? 'approval' : 'ladder';
    const live = this.live.get(runId);
    // A question this drive asked (and answered "later") is being saved as the run pauses: wait for that.
    if (live?.info.here === 'running' && this.approver.askedNow(runId, callId)) await live.promise;
    if (this.live.get(runId)?.info.here === 'running') throw new BadInputError(`Run ${runId} is running and not waiting on a question for call ${callId}.`);
    const state = await this.o.store.readRun(runId).catch(() => {
      throw this.noRun(runId);
    });
    const pending = (state.pending ?? []).find((p) => p.callId === callId);
    if (!pending || pending.kind !== kind)
      throw new BadInputError(
        `Run ${runId} is not waiting on ${kind === 'approval' ? 'an approval' : "the ladder's question"} for call ${callId}` +
          `${(state.pending ?? []).length ? `; it waits on: ${state.pending!.map((p) => `${p.kind} ${p.tool} (${p.callId})`).join(', ')}` : ''}. See triage_status.`,
      );
    if (!this.approver.keep(runId, callId, a)) throw new BadInputError(`That question of run ${runId} was answered already; the first answer stands.`);
    await this.resume(runId);
  }

  /** Stops the drives under way (each pauses with its state saved) and waits for them. */
  async close(): Promise<void> {
    this.aborter.abort();
    await Promise.all([...this.live.values()].map((l) => l.promise));
  }

  private common(): Omit<TriageRunOptions, 'task' | 'workspace'> {
    return {
      runStore: this.o.store,
      approver: this.approver,
      signal: this.aborter.signal,
      ...(this.o.approvalTools ? { approvalTools: this.o.approvalTools } : {}),
      ...(this.o.limits ? { limits: this.o.limits } : {}),
      ...(this.o.githubToken ? { githubToken: this.o.githubToken } : {}),
      ...(this.o.githubApiUrl ? { githubApiUrl: this.o.githubApiUrl } : {}),
    };
  }

  /** Runs a drive in the background; resolves with the run's ID once it is opened, rejects when it fails before that. */
  private drive(run: (onRunOpened: (runId: string) => void) => Promise<TriageOutcome>): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      let id: string | undefined;
      const done = run((runId) => {
        id = runId;
        const info: LiveRun = { here: 'running' };
        const live: Live = { info, promise: Promise.resolve() };
        live.promise = done.then(
          (o) => this.ended(runId, { here: 'stopped', issues: o.issues.map(issueOf), ...(o.result.answer ? { answer: o.result.answer } : {}) }),
          (e: unknown) => this.ended(runId, { here: 'stopped', error: (e as Error)?.message ?? String(e) }),
        );
        this.live.set(runId, live);
        resolve(runId);
      });
      done.catch((e: unknown) => {
        if (id === undefined) reject(e as Error);
      });
    });
  }

  private ended(runId: string, info: LiveRun): void {
    const live = this.live.get(runId);
    if (live) live.info = info;
    this.approver.forgetAsked(runId);
  }

  private async known(runId: string): Promise<void> {
    if (!(await this.o.store.listRuns()).some((l) => l.runId === runId)) throw this.noRun(runId);
  }

  private noRun(runId: string): BadInputError {
    return new BadInputError(`No run ${runId} in ${this.o.store.where}; see triage_status for the runs there.`);
  }
}

function issueOf(i: { number: number; title: string; cause: string; url?: string }): { number: number; title: string; cause: string; url?: string } {
  return { number: i.number, title: i.title, cause: i.cause, ...(i.url ? { url: i.url } : {}) };
}
