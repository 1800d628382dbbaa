/**
 * Every sweep, in the order of the saved table (test/data/sweep.txt): in-process, then with
 * `kill` the SIGKILL sweep, then with `power` the power-loss sweep (both disk models); each
 * with keys on, then off.
 */
import { inProcessSweep } from './inprocess';
import { killSweep } from './kill';
import { powerSweep } from './power';
import type { SweepRow } from './table';
import type { PgRunStore } from '../store/pg/pg-run-store';
import { openStore } from '../store/open-store';

/** A double-crash scenario of the PostgreSQL rows crashes the restart at every this-many-th point only (the file rows: every point). */
export const PG_DOUBLE_EVERY = 7;

/**
 * The PostgreSQL rows (test/data/sweep-pg.txt): the in-process sweep with the runs in the
 * database at `url` (single crashes at every point, double crashes at every 7th point of the
 * restart), then the SIGKILL sweep (a real process killed at every point); keys on, then off.
 */
export async function pgSweepRows(url: string): Promise<SweepRow[]> {
  // Opened by the factory, so `triage` on local files never loads the PostgreSQL client; the
  // harness reads the database's save numbers (pg-probe.ts), which only this backend tells.
  const pg = openStore(url) as PgRunStore;
  try {
    const rows: SweepRow[] = [];
    for (const keys of [true, false]) rows.push(...(await inProcessSweep(keys, undefined, { pg, doubleEvery: PG_DOUBLE_EVERY })));
    for (const keys of [true, false]) rows.push(...(await killSweep(keys, undefined, { pg })));
    return rows;
  } finally {
    await pg.close();
  }
}

export async function sweepRows(o: { kill: boolean; power: boolean }): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  for (const keys of [true, false]) rows.push(...(await inProcessSweep(keys)));
  if (o.kill) for (const keys of [true, false]) rows.push(...(await killSweep(keys)));
  if (o.power) for (const keys of [true, false]) for (const how of ['undo', 'keep'] as const) rows.push(...(await powerSweep(how, keys)));
  return rows;
}
