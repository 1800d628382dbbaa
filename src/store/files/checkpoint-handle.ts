/**
 * The RunHandle the checkpoint store hands out: one open, locked run.
 *
 * A save appends one journal record holding what changed, as its caller says (a StateEdit,
 * state-edit.ts), so its cost does not grow with the run; a save given only the state writes
 * a full record (every message and field), which is always right and costs the state's size. When the journal would outgrow max(1 MiB, the snapshot's size), the
 * save is a compaction instead: the whole state is written as the new snapshot (atomic
 * replace), then the journal is emptied.
 *
 * Saves are encoded at the call, in call order, and written one at a time. If a write fails,
 * later saves of this handle fail too (SaveFailedError; a simulated process death or a lost lock is
 * rethrown as it was): the process dies as far as the checkpoint is concerned.
 *
 * To abandon a handle as a crash would (tests, the in-process sweep), call close() after the
 * simulated process death: it releases the lock and saves nothing, just as a dying process's lock goes.
 */
import type { RunHandle } from '../run-handle';
import type { SaveReason } from '../save-points';
import type { CrashHook } from '../crash-points';
import { WritePoint } from '../../disk/write-points';
import type { RunState } from '../state';
import { LockCompromisedError } from '../../core/errors';
import { writeFileAtomic } from '../../disk/atomic-write';
import type { RunLock } from '../../disk/lock';
import { runPath, runTempPath } from './state-layout';
import { BlobStore } from '../../disk/blob-store';
import { JournalFile, journalPath } from './journal-file';
import type { StateEdit } from '../state-edit';
import { encodeSnapshot } from './snapshot';
import { SaveQueue } from '../save-queue';

export { COMPACT_MIN_BYTES } from '../save-encoder';

export interface HandleOptions {
  sync: boolean;
  crash?: CrashHook;
}

/** Where the files of a loaded run stand. */
export interface SavedPosition {
  seq: number;
  snapshotBytes: number;
  journalBytes: number;
  journalExists: boolean;
}

/** What this handle wrote (for benchmarks and tests). */
export interface WriteStats {
  appends: number;
  compactions: number;
  /** Bytes written to the journal and to snapshots. */
  bytes: number;
  last?: { kind: 'create' | 'append' | 'compaction'; bytes: number };
}

export class CheckpointHandle implements RunHandle {
  private readonly blobs: BlobStore;
  /** Saves run one at a time, in call order; the first failure sticks. */
  private readonly saves: SaveQueue;
  private closed = false;
  private journal: JournalFile | undefined;
  readonly stats: WriteStats = { appends: 0, compactions: 0, bytes: 0 };

  constructor(
    readonly runId: string,
    readonly location: string,
    private readonly lock: RunLock,
    private readonly opts: HandleOptions,
  ) {
    this.blobs = new BlobStore(location, opts.sync);
    this.saves = new SaveQueue(
      runId,
      () => this.assertHeld(),
      () => this.assertLockHeld(),
    );
  }

  /** The snapshot file (runPath). */
  get file(): string {
    return runPath(this.location, this.runId);
  }

  /** The journal file. */
  get journalFile(): string {
    return journalPath(this.location, this.runId);
  }

  /** Starts saving from a loaded run: `state` is the object the caller will go on changing and saving. */
  begin(at: SavedPosition, state: RunState): void {
    this.saves.begin(at.seq, at.journalBytes, at.snapshotBytes, state);
    this.journal = new JournalFile(this.journalFile, at.journalBytes, at.journalExists, this.opts.sync);
  }

  /** Writes a new run's first snapshot (save 0), setting updatedAt; the journal must not exist. */
  async create(state: RunState): Promise<void> {
    this.assertHeld();
    state.updatedAt = new Date().toISOString();
    const buf = Buffer.from(encodeSnapshot(0, state));
    await writeFileAtomic(this.file, runTempPath(this.location, this.runId), buf, this.writeOptions());
    this.count('create', buf.length);
    this.begin({ seq: 0, snapshotBytes: buf.length, journalBytes: 0, journalExists: false }, state);
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
   * Encodes what changed as it is at the call (setting updatedAt), then writes it crash-safely
   * after any earlier save. Given a StateEdit, the record holds exactly the changes it took;
   * given the state itself, a full record. A process death (isProcessDeath) from the crash hook propagates untouched.
   */
  save(edit: StateEdit | RunState, _point: SaveReason): Promise<void> {
    return this.saves.submit(edit, (enc) => (enc.kind === 'compaction' ? () => this.compact(enc.snapshot) : () => this.append(enc.line)));
  }

  private writeOptions(): { sync: boolean; crash?: (p: WritePoint) => void } {
    const crash = this.opts.crash;
    return { sync: this.opts.sync, ...(crash ? { crash: (p: WritePoint) => crash(p) } : {}) };
  }

  private async append(line: Buffer): Promise<void> {
    await this.journal!.append(line, this.writeOptions().crash);
    this.count('append', line.length);
  }

  private async compact(snapshot: Buffer): Promise<void> {
    await writeFileAtomic(this.file, runTempPath(this.location, this.runId), snapshot, this.writeOptions());
    await this.journal!.reset();
    this.count('compaction', snapshot.length);
  }

  private count(kind: 'create' | 'append' | 'compaction', bytes: number): void {
    if (kind === 'append') this.stats.appends++;
    if (kind === 'compaction') this.stats.compactions++;
    this.stats.bytes += bytes;
    this.stats.last = { kind, bytes };
  }

  putBlob(content: Buffer): Promise<string> {
    return this.blobs.put(content);
  }

  getBlob(sha256: string): Promise<Buffer | undefined> {
    return this.blobs.get(sha256);
  }

  /** Waits for saves in progress, then closes the journal and releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.saves.drain();
    await this.journal?.close();
    await this.lock.release();
  }
}
