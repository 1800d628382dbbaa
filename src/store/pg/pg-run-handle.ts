/**
 * The RunHandle the PostgreSQL store hands out: one run, leased (lease.ts).
 *
 * A save is ONE statement, so one transaction and one commit: it moves the run's row to the
 * new save number (phase, waiting questions) only where the lease token still holds an
 * unexpired lease and the row is at the previous save, and in the same statement inserts the
 * save's record (the same checksummed line the file journal would append). When the records
 * would outgrow max(1 MiB, the snapshot), the statement instead writes the whole state as the
 * row's snapshot and deletes the records it covers. A statement that finds the lease gone
 * changes nothing and the save fails with LockCompromisedError; from then on the handle saves
 * nothing (a later save could otherwise land out of order). A save whose outcome is unknown
 * (the connection dropped, no answer) fails the same way: the next process reads what the
 * database holds.
 *
 * Why the fence holds: the save's UPDATE of the run's row takes that row's lock and evaluates
 * the fence on the newest committed version of the row (READ COMMITTED: a row locked by a
 * concurrent writer is waited for and re-checked once it commits). A takeover (openRun, claim)
 * also UPDATEs that row. So the two are ordered by the row lock: a save that got the lock first
 * commits (or rolls back) before the takeover's UPDATE can proceed, and a save that comes after
 * the takeover sees the new token (or the expiry, by the database's own clock) and updates no
 * row, so the INSERT, which selects from the UPDATE's result, inserts nothing. `seq = $3 - 1`
 * keeps the saves contiguous. The record and the row change commit together or not at all.
 *
 * Cost (issue 19): each save is a prepared statement (named: parsed and planned once per
 * connection), and its UPDATE is a HOT one (migrations.ts, version 3: no index names a column it
 * sets), so a save adds one small in-page row version and no index entry to the INSERT.
 *
 * Blobs are inserted under the same fence. Saves are encoded at the call, in call order, and
 * sent one at a time.
 */
import type { RunHandle } from '../run-handle';
import type { SaveReason } from '../save-points';
import { PgWritePoint, type CrashHook } from '../crash-points';
import type { RunState } from '../state';
import type { StateEdit } from '../state-edit';
import { LockCompromisedError } from '../../core/errors';
import { SaveQueue } from '../save-queue';
import type { EncodedSave } from '../save-encoder';
import { sha256Hex } from '../../core/sha256';
import type { PgDatabase } from './database';
import type { PgLease } from './lease';
import { getPgBlob } from './pg-blobs';

/** What the waiting-questions column holds for a state: "kind:callId" of each pending question. */
export function waitingOf(state: RunState): string[] {
  return (state.pending ?? []).map((p) => `${p.kind}:${p.callId}`);
}

const FENCE = 'run_id = $1 AND lease_token = $2 AND lease_expires > clock_timestamp()';

export const APPEND_SQL = `
WITH fence AS (
  UPDATE triage_runs SET seq = $3, phase = $5, waiting = $6, started = true, updated_at = clock_timestamp()
  WHERE ${FENCE} AND seq = $3 - 1
  RETURNING run_id)
INSERT INTO triage_run_records (run_id, seq, record) SELECT run_id, $3, $4 FROM fence`;

const COMPACT_SQL = `
WITH fence AS (
  UPDATE triage_runs SET seq = $3, snapshot = $4, snapshot_seq = $3, phase = $5, waiting = $6, started = true, updated_at = clock_timestamp()
  WHERE ${FENCE} AND seq = $3 - 1
  RETURNING run_id),
gone AS (DELETE FROM triage_run_records r USING fence WHERE r.run_id = fence.run_id)
SELECT count(*)::int AS n FROM fence`;

const BLOB_SQL = `
WITH fence AS (SELECT 1 FROM triage_runs WHERE ${FENCE}),
ins AS (INSERT INTO triage_blobs (sha256, content) SELECT $3, $4 FROM fence ON CONFLICT (sha256) DO NOTHING)
SELECT count(*)::int AS n FROM fence`;

export interface PgHandleOptions {
  crash?: CrashHook;
}

export class PgRunHandle implements RunHandle {
  /** Saves run one at a time, in call order; the first failure sticks. */
  private readonly saves: SaveQueue;
  private closed = false;

  constructor(
    readonly runId: string,
    /** Where the run is: the database URL without its password. */
    readonly location: string,
    private readonly db: PgDatabase,
    readonly lease: PgLease,
    private readonly opts: PgHandleOptions = {},
  ) {
    this.saves = new SaveQueue(
      runId,
      () => this.assertHeld(),
      () => this.assertLeaseHeld(),
    );
  }

  /** Starts saving from a loaded run at save `seq`; `state` is the object the caller goes on changing. */
  begin(seq: number, recordBytes: number, snapshotBytes: number, state: RunState): void {
    this.saves.begin(seq, recordBytes, snapshotBytes, state);
  }

  assertHeld(): void {
    if (this.closed) throw new LockCompromisedError(this.runId, 'this handle was closed');
    this.assertLeaseHeld();
  }

  private assertLeaseHeld(): void {
    const reason = this.lease.lost;
    if (reason !== undefined) throw new LockCompromisedError(this.runId, reason);
  }

  save(edit: StateEdit | RunState, _point: SaveReason): Promise<void> {
    return this.saves.submit(edit, (enc) => {
      // The columns a worker picks runs by, as of this save.
      const phase = enc.state.phase;
      const waiting = waitingOf(enc.state);
      return () => this.write(enc, phase, waiting);
    });
  }

  /** One save in one statement, fenced by this acquisition's token. */
  private async write(enc: EncodedSave, phase: string, waiting: string[]): Promise<void> {
    this.opts.crash?.(PgWritePoint.BeforeCommit);
    let landed: boolean;
    try {
      if (enc.kind === 'append') {
        const r = await this.db.query(
          APPEND_SQL,
          [this.runId, this.lease.token, enc.seq, enc.line.subarray(0, enc.line.length - 1), phase, waiting],
          'triage_save_append',
        );
        landed = r.rowCount === 1;
      } else {
        const r = await this.db.query<{ n: number }>(COMPACT_SQL, [this.runId, this.lease.token, enc.seq, enc.snapshot, phase, waiting], 'triage_save_compact');
        landed = r.rows[0]?.n === 1;
      }
    } catch (e) {
      throw new LockCompromisedError(
        this.runId,
        `save ${enc.seq} got no clear answer from the database (${(e as Error).message}), so whether it landed is unknown`,
      );
    }
    if (!landed) throw new LockCompromisedError(this.runId, `its lease expired or was taken over before save ${enc.seq}, which was refused`);
    this.opts.crash?.(PgWritePoint.Committed);
  }

  async putBlob(content: Buffer): Promise<string> {
    this.assertHeld();
    const sha = sha256Hex(content);
    const r = await this.db.query<{ n: number }>(BLOB_SQL, [this.runId, this.lease.token, sha, content], 'triage_save_blob');
    if (r.rows[0]?.n !== 1) throw new LockCompromisedError(this.runId, "its lease expired or was taken over; the file's bytes were not stored");
    return sha;
  }

  getBlob(sha256: string): Promise<Buffer | undefined> {
    return getPgBlob(this.db, sha256);
  }

  /** Waits for saves in progress, then gives the lease up. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.saves.drain();
    await this.lease.release();
  }
}
