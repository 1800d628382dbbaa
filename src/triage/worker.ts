/**
 * A worker of a fleet: it claims runnable runs from a shared run store on PostgreSQL (queued ones,
 * interrupted ones whose lease expired, paused ones a person answered), runs each with the job's
 * tracker, tools and model as the run was started with, and lets it go, `concurrency` at a time.
 * Questions nobody answered yet pause the run in the store (StoredAnswerApprover); a run that
 * stops with an error a worker cannot fix (the workspace changed, a budget or the restart limit
 * reached, a corrupt run) is held (`hold`), so no worker picks it again until a person opens it.
 * A lost lease or a cancellation is not held: the run is someone else's, or resumable.
 */
import { CancelledError, LockCompromisedError, LockedError, TriageError } from '../core/errors';
import type { QueueStore } from '../store/run-store';
import type { LoopEvent } from '../agent/loop';
import type { Limits } from '../agent/budget';
import { continueTriage, type TriageOutcome } from './job';
import { StoredAnswerApprover, type ApproveMode } from './stored-answers';
import type { CrashHook } from '../store/crash-points';

export interface WorkerOptions {
  store: QueueStore;
  /** Runs at once; default 1. */
  concurrency?: number;
  approve?: ApproveMode;
  /** Return once nothing is runnable (and nothing of ours is running); default: keep polling. */
  exitWhenIdle?: boolean;
  /** How long to wait before looking again when nothing is runnable; default 1 s. */
  pollMs?: number;
  /** The lease's length; default 10 s. */
  leaseMs?: number;
  limits?: Limits;
  /** The MCP configuration file for the runs it takes that use MCP servers (default: the one each run carries or was started with). */
  mcpConfig?: string;
  signal?: AbortSignal;
  crash?: CrashHook;
  onEvent?: (runId: string, e: LoopEvent) => void;
  /** One line per run taken and let go. */
  log?: (line: string) => void;
}

export interface WorkerRun {
  runId: string;
  /** done, paused, held (an error a person must see), lost (lease lost), cancelled */
  ended: 'done' | 'paused' | 'held' | 'lost' | 'cancelled';
  error?: string;
  modelCalls: number;
}

export async function runWorker(o: WorkerOptions): Promise<WorkerRun[]> {
  const runs: WorkerRun[] = [];
  const answers = o.store.answers();
  const log = o.log ?? (() => undefined);
  const slot = async (n: number): Promise<void> => {
    while (!o.signal?.aborted) {
      const claimed = await o.store.claimNext({ ...(o.leaseMs ? { staleMs: o.leaseMs } : {}), ...(o.crash ? { crash: o.crash } : {}) });
      if (!claimed) {
        if (o.exitWhenIdle) return;
        await sleep(o.pollMs ?? 1000, o.signal);
        continue;
      }
      const runId = claimed.state.runId;
      log(`worker ${n}: took ${runId} (${claimed.state.task}, phase ${claimed.state.phase}, turn ${claimed.state.turns})`);
      let outcome: TriageOutcome | undefined;
      const r: WorkerRun = { runId, ended: 'done', modelCalls: 0 };
      try {
        outcome = await continueTriage(
          {
            runStore: o.store,
            approver: new StoredAnswerApprover(answers, o.approve ?? 'ask'),
            store: { ...(o.leaseMs ? { staleMs: o.leaseMs } : {}) },
            ...(o.limits ? { limits: o.limits } : {}),
            ...(o.mcpConfig !== undefined ? { mcpConfig: o.mcpConfig } : {}),
            ...(o.signal ? { signal: o.signal } : {}),
            ...(o.crash ? { crash: o.crash } : {}),
            ...(o.onEvent ? { onEvent: (e: LoopEvent) => o.onEvent!(runId, e) } : {}),
          },
          claimed,
        );
        r.ended = outcome.result.phase === 'done' ? 'done' : 'paused';
        r.modelCalls = outcome.modelCalls;
      } catch (e) {
        r.error = (e as Error).message;
        if (e instanceof LockCompromisedError || e instanceof LockedError) r.ended = 'lost';
        else if (e instanceof CancelledError) r.ended = 'cancelled';
        else {
          r.ended = 'held';
          await o.store.hold(runId, e instanceof TriageError ? `${e.code}: ${e.message}` : String(e)).catch(() => undefined);
        }
      }
      runs.push(r);
      log(`worker ${n}: let go of ${runId}: ${r.ended}${r.error ? ` (${r.error})` : ''}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 1) }, (_, i) => slot(i + 1)));
  return runs;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
