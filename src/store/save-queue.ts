/**
 * The order in which a run handle saves, whatever the store: each save is encoded at its call
 * (what changed, as it is then), and written after every earlier save, one at a time. The first
 * failure sticks: every later save fails with it, so nothing lands after a gap. A failure is
 * reported as it is when it is a simulated crash or a lost lock or lease, else as a
 * SaveFailedError naming the run.
 */
import type { RunState } from './state';
import type { StateEdit } from './state-edit';
import { LockCompromisedError } from '../core/errors';
import { isProcessDeath } from '../core/process-death';
import { SaveFailedError } from './save-failed-error';
import { SaveEncoder, type EncodedSave } from './save-encoder';

export class SaveQueue {
  private readonly encoder = new SaveEncoder();
  /** The write in progress. */
  private queue: Promise<void> = Promise.resolve();
  private failure: unknown;

  /**
   * `held` throws when the handle may take no more saves (closed, or the run no longer held);
   * `authority` throws when the run is no longer held, checked again before each write (a
   * save taken before a close still completes).
   */
  constructor(
    private readonly runId: string,
    private readonly held: () => void,
    private readonly authority: () => void,
  ) {}

  /** Starts from a loaded run (save `seq`, with journal and snapshot of these sizes); `state` is the object the caller goes on changing. */
  begin(seq: number, journalBytes: number, snapshotBytes: number, state: RunState): void {
    this.encoder.begin(seq, journalBytes, snapshotBytes, state);
  }

  /**
   * Encodes the save now and gives it to `plan`, also now (so what it reads of the state is as
   * of this call); the write `plan` returns runs after every earlier save.
   */
  submit(edit: StateEdit | RunState, plan: (enc: EncodedSave) => () => Promise<void>): Promise<void> {
    let write: () => Promise<void>;
    let started = false;
    try {
      this.held();
      if (this.failure !== undefined) throw this.failed();
      if (!this.encoder.loaded) throw new Error(`run ${this.runId} was not loaded into this handle`);
      started = true; // from here a throw leaves the sequence ahead of the store
      write = plan(this.encoder.next(edit));
    } catch (e) {
      if (started) this.failure = e;
      return Promise.reject(e);
    }
    const run = this.queue.then(async () => {
      if (this.failure !== undefined) throw this.failed();
      try {
        this.authority();
        await write();
      } catch (e) {
        this.failure = e;
        throw e;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Settles once every save submitted so far has been written or has failed. */
  drain(): Promise<void> {
    return this.queue;
  }

  private failed(): unknown {
    const f = this.failure;
    return isProcessDeath(f) || f instanceof LockCompromisedError ? f : new SaveFailedError(this.runId, f);
  }
}
