/**
 * The PostgreSQL backend of the run store (migrations.ts for the schema). Opening a run takes
 * its lease (lease.ts) in the statement that reads it: a second live process gets LockedError
 * at once, an expired lease is taken over at once, and so is the lease of a process on this
 * host that is certainly dead (the file lock's owner check, lock-owner.ts), so "the same command
 * again" after a SIGKILL does not wait out the lease.
 *
 * For a fleet of workers: `enqueue` adds a run nobody has started, `claimNext` picks one runnable
 * run (queued, interrupted with its lease expired, or paused with an answer to its question
 * waiting) with FOR UPDATE SKIP LOCKED and takes its lease in the same statement, `hold` keeps
 * workers off a run that stopped for a person, and answers (pg-answers.ts) carry a person's
 * reply from an editor to the worker that continues the run.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { BadInputError, CorruptCheckpointError, LockCompromisedError, LockedError, RunExistsError } from '../../core/errors';
import type { RunHandle } from '../run-handle';
import type { OpenedRun, QueueStore, RunListing, StoreOptions } from '../run-store';
import type { RunState } from '../state';
import { assertRunId } from '../files/state-layout';
import { PgWritePoint } from '../crash-points';
import { encodeSnapshot } from '../files/snapshot';
import { currentOwner, describeOwner, LockOwnerSchema, ownerStatus } from '../../disk/lock-owner';
import { PgDatabase, type PgOptions } from './database';
import { expiresSql, leaseMs, PgLease } from './lease';
import { PgRunHandle, waitingOf } from './pg-run-handle';
import { decodeRunRow, RUN_COLUMNS, runWhere, type RunRow } from './pg-load';
import { getPgBlob } from './pg-blobs';
import type { RunEventStore } from '../run-event';
import { PgRunEventStore } from './pg-events';
import type { RunAnswers } from '../answers';
import { PgAnswers } from './pg-answers';
import type { IssueStore } from '../issues';
import { PgIssueStore } from './pg-issues';

export interface PgStoreOptions extends PgOptions {
  /** Where new runs' copies of a task's sample go; default ~/.durable-triage/workspaces. */
  workspacesDir?: string;
}

interface LeaseRow {
  lease_owner: unknown;
  held: boolean;
  token: string | null;
}

export class PgRunStore implements QueueStore {
  readonly kind = 'postgres';
  readonly db: PgDatabase;
  readonly workspacesDir: string;

  constructor(url: string, o: PgStoreOptions = {}) {
    this.db = new PgDatabase(url, o);
    this.workspacesDir = path.resolve(o.workspacesDir ?? path.join(os.homedir(), '.durable-triage', 'workspaces'));
  }

  get where(): string {
    return this.db.where;
  }

  private noSuchRun(runId: string): BadInputError {
    return new BadInputError(`No run ${runId} in ${this.where}. List the runs there with "triage status --store URL".`);
  }

  private locked(runId: string, owner: unknown): LockedError {
    const o = LockOwnerSchema.safeParse(owner);
    return new LockedError(runId, `the lease of run ${runId} in ${this.where}`, o.success ? describeOwner(o.data) : undefined);
  }

  private async newLease(runId: string, token: string, sentAt: number, opts: StoreOptions): Promise<PgLease> {
    return new PgLease(this.db, runId, token, leaseMs(opts.staleMs), sentAt, (reason) => opts.onCompromised?.(new LockCompromisedError(runId, reason)));
  }

  private handleOf(state: RunState, lease: PgLease, opts: StoreOptions): PgRunHandle {
    return new PgRunHandle(state.runId, this.where, this.db, lease, opts.crash ? { crash: opts.crash } : {});
  }

  async createRun(state: RunState, opts: StoreOptions = {}): Promise<RunHandle> {
    return this.insertRun(state, { started: true, opts });
  }

  /** Adds a run that a worker will start (no lease: it is runnable at once). */
  async enqueue(state: RunState): Promise<void> {
    await this.insertRun(state, { started: false });
  }

  private async insertRun(state: RunState, o: { started: true; opts: StoreOptions }): Promise<RunHandle>;
  private async insertRun(state: RunState, o: { started: false }): Promise<undefined>;
  private async insertRun(state: RunState, o: { started: boolean; opts?: StoreOptions }): Promise<RunHandle | undefined> {
    assertRunId(state.runId);
    state.updatedAt = new Date().toISOString();
    const snapshot = Buffer.from(encodeSnapshot(0, state));
    const token = o.started ? randomUUID() : null;
    const owner = o.started ? await currentOwner() : null;
    const ttl = leaseMs(o.opts?.staleMs);
    const sentAt = performance.now();
    o.opts?.crash?.(PgWritePoint.BeforeCommit);
    const r = await this.db.query(
      `INSERT INTO triage_runs (run_id, task, workspace, created_at, phase, started, waiting, snapshot, snapshot_seq, seq, lease_token, lease_owner, lease_expires)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, $9, $10, CASE WHEN $9::uuid IS NULL THEN NULL ELSE ${expiresSql(11)} END)
       ON CONFLICT (run_id) DO NOTHING`,
      [state.runId, state.task, state.config.workspace, state.createdAt, state.phase, o.started, waitingOf(state), snapshot, token, owner, ttl],
    );
    if (r.rowCount !== 1) throw new RunExistsError(state.runId);
    if (!o.started) {
      o.opts?.crash?.(PgWritePoint.Committed);
      return undefined;
    }
    const handle = this.handleOf(state, await this.newLease(state.runId, token!, sentAt, o.opts!), o.opts!);
    try {
      o.opts!.crash?.(PgWritePoint.Committed);
    } catch (e) {
      await handle.close(); // as the file store's createRun lets its lock go
      throw e;
    }
    handle.begin(0, 0, snapshot.length, state);
    return handle;
  }

  /**
   * Takes the run's lease: free, expired, or held by a process of this host that is dead. The
   * statement that takes it returns the run's rows, so the state is read under the lease.
   */
  private async takeLease(runId: string, opts: StoreOptions): Promise<{ row: RunRow; lease: PgLease }> {
    assertRunId(runId);
    const ttl = leaseMs(opts.staleMs);
    const owner = await currentOwner();
    /** The token of a dead holder's lease, taken over on the next attempt (only if it is still that one). */
    let deadToken: string | null = null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const token = randomUUID();
      const sentAt = performance.now();
      const r = await this.db.query<RunRow>(
        `UPDATE triage_runs r SET lease_token = $2, lease_owner = $3, lease_expires = ${expiresSql(4)}, hold = NULL
         WHERE r.run_id = $1 AND (r.lease_token IS NULL OR r.lease_expires <= clock_timestamp() OR r.lease_token = $5)
         RETURNING ${RUN_COLUMNS}`,
        [runId, token, owner, ttl, deadToken],
      );
      if (r.rowCount === 1) return { row: r.rows[0], lease: await this.newLease(runId, token, sentAt, opts) };
      const held = await this.db.query<LeaseRow>(
        'SELECT lease_owner, lease_token::text AS token, lease_expires > clock_timestamp() AS held FROM triage_runs WHERE run_id = $1',
        [runId],
      );
      const h = held.rows[0];
      if (!h) throw this.noSuchRun(runId);
      if (!h.held || h.token === null) continue; // expired (or released) meanwhile: try again
      const o = LockOwnerSchema.safeParse(h.lease_owner);
      if (deadToken !== h.token && o.success && (await ownerStatus(o.data)) === 'dead') {
        deadToken = h.token;
        continue;
      }
      throw this.locked(runId, h.lease_owner);
    }
    throw new LockedError(runId, `the lease of run ${runId} in ${this.where}`, 'its lease kept changing hands');
  }

  async openRun(runId: string, opts: StoreOptions = {}): Promise<OpenedRun> {
    const { row, lease } = await this.takeLease(runId, opts);
    let loaded;
    try {
      loaded = decodeRunRow(this.where, row);
    } catch (e) {
      await lease.release();
      throw e;
    }
    const handle = this.handleOf(loaded.state, lease, opts);
    handle.begin(loaded.seq, loaded.recordBytes, loaded.snapshotBytes, loaded.state);
    return { handle, state: loaded.state, ...(loaded.started ? {} : { neverStarted: true }) };
  }

  /**
   * A worker's pick: the oldest runnable run nobody holds (queued, interrupted, or paused with an
   * answer waiting for its question), skipping rows another worker is picking, and its lease
   * taken in the same statement. Undefined when there is none.
   */
  async claimNext(opts: StoreOptions = {}): Promise<OpenedRun | undefined> {
    const ttl = leaseMs(opts.staleMs);
    const owner = await currentOwner();
    const token = randomUUID();
    const sentAt = performance.now();
    const r = await this.db.query<RunRow>(
      `WITH pick AS (
         SELECT run_id FROM triage_runs q
         WHERE NOT q.done AND q.hold IS NULL
           AND (q.lease_token IS NULL OR q.lease_expires <= clock_timestamp())
           AND (q.phase <> 'paused' OR EXISTS (
             SELECT 1 FROM triage_answers a WHERE a.run_id = q.run_id AND a.kind || ':' || a.call_id = ANY (q.waiting)))
         ORDER BY q.created_at, q.run_id
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
       UPDATE triage_runs r SET lease_token = $1, lease_owner = $2, lease_expires = ${expiresSql(3)}
       FROM pick WHERE r.run_id = pick.run_id
       RETURNING ${RUN_COLUMNS}`,
      [token, owner, ttl],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    const lease = await this.newLease(row.run_id, token, sentAt, opts);
    let loaded;
    try {
      loaded = decodeRunRow(this.where, row);
    } catch (e) {
      await this.hold(row.run_id, (e as Error).message);
      await lease.release();
      throw e;
    }
    const handle = this.handleOf(loaded.state, lease, opts);
    handle.begin(loaded.seq, loaded.recordBytes, loaded.snapshotBytes, loaded.state);
    return { handle, state: loaded.state, ...(loaded.started ? {} : { neverStarted: true }) };
  }

  /** Keeps workers off a run that stopped for a person (an error they cannot fix); opening it by hand clears it. */
  async hold(runId: string, reason: string): Promise<void> {
    await this.db.query('UPDATE triage_runs SET hold = $2 WHERE run_id = $1', [runId, reason.slice(0, 2000)]);
  }

  async readRun(runId: string): Promise<RunState> {
    assertRunId(runId);
    const r = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM triage_runs r WHERE r.run_id = $1`, [runId]);
    if (!r.rows[0]) throw this.noSuchRun(runId);
    return decodeRunRow(this.where, r.rows[0]).state;
  }

  /** A run's state and the save it is at (undefined when there is no such run): for the crash sweep's acknowledgement check. */
  async readRunAt(runId: string): Promise<{ state: RunState; seq: number } | undefined> {
    const r = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM triage_runs r WHERE r.run_id = $1`, [runId]);
    if (!r.rows[0]) return undefined;
    const loaded = decodeRunRow(this.where, r.rows[0]);
    return { state: loaded.state, seq: loaded.seq };
  }

  async hasRun(runId: string): Promise<boolean> {
    const r = await this.db.query('SELECT 1 FROM triage_runs WHERE run_id = $1', [runId]);
    return r.rowCount === 1;
  }

  async listRuns(): Promise<RunListing[]> {
    const r = await this.db.query<RunRow & { locked: boolean; lease_owner: unknown }>(
      `SELECT ${RUN_COLUMNS}, r.lease_owner, (r.lease_token IS NOT NULL AND r.lease_expires > clock_timestamp()) AS locked
       FROM triage_runs r ORDER BY r.created_at DESC, r.run_id`,
    );
    // A lease whose holder on this host is dead is not "open elsewhere": the next opener takes it at once.
    const dead = await Promise.all(r.rows.map(async (row) => row.locked && (await this.ownerIsDead(row.lease_owner))));
    return r.rows.map((row, i) => {
      const l: RunListing = { runId: row.run_id, file: runWhere(this.where, row.run_id), locked: row.locked && !dead[i] };
      try {
        l.state = decodeRunRow(this.where, row).state;
      } catch (e) {
        l.error = e instanceof CorruptCheckpointError ? e : new CorruptCheckpointError(l.file, `it cannot be read (${(e as Error).message})`);
      }
      return l;
    });
  }

  private async ownerIsDead(owner: unknown): Promise<boolean> {
    const o = LockOwnerSchema.safeParse(owner);
    return o.success && (await ownerStatus(o.data)) === 'dead';
  }

  async deleteRun(runId: string): Promise<void> {
    const { lease } = await this.takeLease(runId, {});
    try {
      const r = await this.db.query('DELETE FROM triage_runs WHERE run_id = $1 AND lease_token = $2', [runId, lease.token]);
      if (r.rowCount !== 1) throw new LockCompromisedError(runId, 'its lease was taken over before it was deleted');
    } finally {
      lease.abandon();
    }
  }

  getBlob(sha256: string): Promise<Buffer | undefined> {
    return getPgBlob(this.db, sha256);
  }

  events(): RunEventStore {
    return new PgRunEventStore(this.db);
  }

  answers(): RunAnswers {
    return new PgAnswers(this.db);
  }

  issues(): IssueStore {
    return new PgIssueStore(this.db);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
