/**
 * A run's lease in PostgreSQL, the database's answer to the file store's lock: the run's row
 * holds the lease token (a fresh random UUID per acquisition), its owner (host, pid, process
 * start time, boot ID) and its expiry, computed by the database's clock. Every write of the
 * holder names the token in the same statement (pg-run-handle.ts), so once the lease expired
 * or was taken over, nothing the old holder sends lands.
 *
 * A heartbeat renews the expiry every ttl/3. A heartbeat that fails, finds the lease gone, or
 * does not answer within ttl/3 (ambiguous: it may or may not have landed) counts as lost
 * authority: `lost` is set for good and onLost told. Independently, the holder never trusts the
 * lease past the time it last KNEW it was renewed: local send time of the last confirmed
 * heartbeat + ttl, which is no later than the expiry the database computed. So a process
 * resumed after a freeze (SIGSTOP, a suspended laptop, a long GC pause) sees its lease as lost
 * at its very next check, before any side effect, even if no heartbeat has run yet.
 */
import { performance } from 'node:perf_hooks';
import type { PgDatabase } from './database';

export const DEFAULT_LEASE_MS = 10_000;
/** The shortest lease: the heartbeat needs time to answer. */
export const MIN_LEASE_MS = 1_000;

export function leaseMs(staleMs: number | undefined): number {
  return Math.max(staleMs ?? DEFAULT_LEASE_MS, MIN_LEASE_MS);
}

/** SQL for "now + the lease's length", with the length in milliseconds as parameter $n. */
export function expiresSql(n: number): string {
  return `clock_timestamp() + $${n} * interval '1 millisecond'`;
}

export class PgLease {
  private lostReason: string | undefined;
  private released = false;
  /** performance.now() before which the lease is known held. */
  private knownUntil: number;
  private timer: NodeJS.Timeout | undefined;
  private beating = false;

  /** `sentAt`: performance.now() just before the statement that took the lease was sent. */
  constructor(
    private readonly db: PgDatabase,
    readonly runId: string,
    readonly token: string,
    readonly ttlMs: number,
    sentAt: number,
    private readonly onLost?: (reason: string) => void,
  ) {
    this.knownUntil = sentAt + ttlMs;
    this.timer = setInterval(() => void this.beat(), Math.max(Math.floor(ttlMs / 3), 100));
    this.timer.unref();
  }

  /** Why the lease is lost, or undefined while it is held. */
  get lost(): string | undefined {
    if (this.lostReason === undefined && performance.now() >= this.knownUntil) {
      this.lose(`no heartbeat was confirmed within its ${this.ttlMs / 1000} s lease (the process was frozen or the database out of reach)`);
    }
    return this.lostReason;
  }

  private lose(reason: string): void {
    if (this.lostReason !== undefined) return;
    this.lostReason = reason;
    this.stop();
    try {
      this.onLost?.(reason);
    } catch {
      // a listener's failure must not escape a timer
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One heartbeat: renews the expiry while the token still holds an unexpired lease. */
  private async beat(): Promise<void> {
    if (this.beating || this.released || this.lostReason !== undefined) return;
    if (this.lost !== undefined) return;
    this.beating = true;
    const sentAt = performance.now();
    const limit = Math.max(Math.floor(this.ttlMs / 3), 100);
    let timer: NodeJS.Timeout | undefined;
    try {
      const r = await Promise.race([
        this.db.query(`UPDATE triage_runs SET lease_expires = ${expiresSql(3)} WHERE run_id = $1 AND lease_token = $2 AND lease_expires > clock_timestamp()`, [
          this.runId,
          this.token,
          this.ttlMs,
        ]),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), limit);
        }),
      ]);
      if (this.released) return;
      if (r === 'timeout') this.lose(`a heartbeat got no answer within ${limit} ms, so whether the lease was renewed is unknown`);
      else if (r.rowCount !== 1) this.lose('its lease expired or was taken over by another process');
      else this.knownUntil = sentAt + this.ttlMs;
    } catch (e) {
      if (!this.released) this.lose(`a heartbeat failed (${(e as Error).message})`);
    } finally {
      clearTimeout(timer);
      this.beating = false;
    }
  }

  /** Gives the lease up (idempotent); a lost lease is left alone, as it may be another process's now. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stop();
    if (this.lostReason !== undefined) return;
    await this.db
      .query('UPDATE triage_runs SET lease_token = NULL, lease_owner = NULL, lease_expires = NULL WHERE run_id = $1 AND lease_token = $2', [
        this.runId,
        this.token,
      ])
      .catch(() => undefined); // unreachable: the lease simply expires
  }

  /** Stops heartbeating without giving the lease up, as a process that died would (tests, the in-process sweep). */
  abandon(): void {
    this.released = true;
    this.stop();
  }
}
