/**
 * Every sweep, in the order of the saved table (test/data/sweep.txt): in-process, then with
 * `kill` the SIGKILL sweep, then with `power` the power-loss sweep (both disk models); each
 * with keys on, then off.
 */
import { inProcessSweep } from './inprocess';
import { killSweep } from './kill';
import { powerSweep } from './power';
import type { SweepRow } from './table';

export async function sweepRows(o: { kill: boolean; power: boolean }): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  for (const keys of [true, false]) rows.push(...(await inProcessSweep(keys)));
  if (o.kill) for (const keys of [true, false]) rows.push(...(await killSweep(keys)));
  if (o.power) for (const keys of [true, false]) for (const how of ['undo', 'keep'] as const) rows.push(...(await powerSweep(how, keys)));
  return rows;
}
