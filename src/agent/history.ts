/**
 * Writes a run's history into its event record (store/run-event.ts) as the loop goes. Events that
 * claim something the state records (a reply's usage, a ladder decision, an answer) wait for
 * the save that makes their fact durable and are appended after it; a life that ends on an
 * error drops the claims its last save did not cover, and a crash (a simulated process death, or a real
 * one) loses whatever was not appended: the record may miss an event, never invent one.
 * Observations (a life began, the workspace was checked, how a life stopped) are appended as
 * they happen, in order with the rest.
 *
 * Appends run in the background, one at a time and in order; `settle()` waits for them. A
 * failed append never stops the run: it is reported to `onError` and the record misses it.
 */
import type { RunEvent, RunEventStore } from '../store/run-event';
import { CancelledError, TriageError, WorkspaceChangedError } from '../core/errors';
import { isProcessDeath } from '../core/process-death';
import type { RunResult } from '../store/state';
import type { LoopEvent } from './loop';

export class RunHistory {
  /** Events waiting for the next save (claims, and observations behind them so the order holds). */
  private waiting: { e: RunEvent; claim: boolean }[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RunEventStore,
    private readonly runId: string,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  private at(): string {
    return this.now().toISOString();
  }

  /** The loop's events, as they come (synchronously). */
  onLoopEvent(e: LoopEvent): void {
    const at = this.at();
    switch (e.type) {
      case 'saved':
        this.flush(this.waiting.map((w) => w.e));
        return;
      case 'started': {
        const o: RunEvent = { type: 'opened', at, resumed: e.resumed, reask: e.reask, restarts: e.restarts, phase: e.phase, turn: e.turn };
        if (e.nextCall) o.nextCall = e.nextCall;
        this.observe(o);
        return;
      }
      case 'workspace-verified':
        this.observe({ type: 'workspace-checked', at, files: e.files, after: e.after });
        return;
      case 'reply':
        this.claim({ type: 'reply', at, turn: e.turn + 1, usage: e.usage, calls: e.calls.length });
        return;
      case 'ladder':
        if (e.outcome === 'later') return;
        this.claim({ type: 'ladder', at, callId: e.call.id, tool: e.call.name, rung: e.step, outcome: e.outcome, ...(e.by ? { by: e.by } : {}) });
        return;
      case 'approval':
        if (e.answer === 'later') return;
        this.claim({ type: 'answer', at, callId: e.call.id, tool: e.call.name, answer: e.answer, ...(e.by ? { by: e.by } : {}) });
        return;
      default:
        return;
    }
  }

  /** The life ended with a result (done or paused): its last save covered everything. */
  finished(r: RunResult): void {
    this.flush([...this.waiting.map((w) => w.e), { type: 'stopped', at: this.at(), how: r.phase === 'done' ? 'done' : 'paused' }]);
  }

  /** The life ended on an error. A crash writes nothing more; otherwise the unsaved claims are dropped and the stop is recorded. */
  failed(err: unknown): void {
    if (isProcessDeath(err)) {
      this.waiting = [];
      return;
    }
    const kept = this.waiting.filter((w) => !w.claim).map((w) => w.e);
    const stop: RunEvent = { type: 'stopped', at: this.at(), how: err instanceof CancelledError ? 'cancelled' : 'error' };
    if (err instanceof TriageError) stop.code = err instanceof CancelledError && err.why ? err.why : err.code;
    if (!(err instanceof CancelledError)) stop.message = err instanceof Error ? err.message : String(err);
    if (err instanceof WorkspaceChangedError) stop.files = err.changes.map((c) => c.path);
    this.flush([...kept, stop]);
  }

  /** Waits for the appends in progress. */
  settle(): Promise<void> {
    return this.queue;
  }

  private claim(e: RunEvent): void {
    this.waiting.push({ e, claim: true });
  }

  private observe(e: RunEvent): void {
    if (this.waiting.length > 0) this.waiting.push({ e, claim: false });
    else this.flush([e]);
  }

  private flush(events: RunEvent[]): void {
    this.waiting = [];
    if (events.length === 0) return;
    this.queue = this.queue.then(() => this.store.append(this.runId, events)).catch((e: unknown) => this.onError(e));
  }
}
