/**
 * The RunHandle the checkpoint store hands out: one open, locked run.
 *
 * To abandon a handle as a crash would (tests, the in-process sweep), call close() after the
 * SimulatedCrash: it releases the lock and saves nothing, just as a dying process's lock goes.
 */
import type { RunHandle } from './handle';
import type { SaveReason } from './savepoints';
import { WritePoint, type CrashHook } from './savepoints';
import { encodeState, type RunState } from './state';
import { LockCompromisedError } from './errors';
import { writeFileAtomic } from './fsutil';
import type { RunLock } from './lock';
import { runPath, runTempPath } from './paths';
import { BlobStore } from './blobs';

export interface HandleOptions {
  sync: boolean;
  crash?: CrashHook;
}

export class CheckpointHandle implements RunHandle {
  private readonly blobs: BlobStore;
  /** The write in progress; saves run one at a time, in call order. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly runId: string,
    readonly stateDir: string,
    private readonly lock: RunLock,
    private readonly opts: HandleOptions,
  ) {
    this.blobs = new BlobStore(stateDir, opts.sync);
  }

  /** The checkpoint file. */
  get file(): string {
    return runPath(this.stateDir, this.runId);
  }

  assertHeld(): void {
    if (this.closed) throw new LockCompromisedError(this.runId, 'this handle was closed');
    this.assertLockHeld();
  }

  private assertLockHeld(): void {
    const reason = this.lock.compromised;
    if (reason !== undefined) throw new LockCompromisedError(this.runId, reason);
  }

  /**
   * Encodes the state as it is at the call (setting updatedAt), then writes it crash-safely
   * after any earlier save. A SimulatedCrash from the crash hook propagates untouched.
   */
  save(state: RunState, _point: SaveReason): Promise<void> {
    let text: string;
    try {
      this.assertHeld();
      state.updatedAt = new Date().toISOString();
      text = encodeState(state);
    } catch (e) {
      return Promise.reject(e);
    }
    const run = this.queue.then(() => this.write(text));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(text: string): Promise<void> {
    // Not assertHeld(): a save accepted before close() still completes.
    this.assertLockHeld();
    const crash = this.opts.crash;
    await writeFileAtomic(this.file, runTempPath(this.stateDir, this.runId), text, {
      sync: this.opts.sync,
      ...(crash ? { crash: (p: WritePoint) => crash(p) } : {}),
    });
  }

  putBlob(content: Buffer): Promise<string> {
    return this.blobs.put(content);
  }

  getBlob(sha256: string): Promise<Buffer | undefined> {
    return this.blobs.get(sha256);
  }

  /** Waits for saves in progress, then releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.lock.release();
  }
}
