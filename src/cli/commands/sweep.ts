/**
 * `triage sweep`: the crash sweep's table (in-process, and with --kill the SIGKILL sweep).
 */
import { flags } from '../flags';
import { inProcessSweep } from '../../triage/sweep/inprocess';
import { killSweep } from '../../triage/sweep/kill';
import { formatTable, type SweepRow } from '../../triage/sweep/table';
import { EXIT } from '../exitcodes';

export async function cmdSweep(args: string[]): Promise<number> {
  const { values: v } = flags(args, { kill: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } });
  const rows: SweepRow[] = [];
  const started = Date.now();
  for (const keys of [true, false]) rows.push(...(await inProcessSweep(keys)));
  if (v.kill) for (const keys of [true, false]) rows.push(...(await killSweep(keys)));
  const seconds = (Date.now() - started) / 1000;
  if (v.json) process.stdout.write(JSON.stringify({ rows, seconds }) + '\n');
  else {
    // The table alone on stdout (it is what test/data/sweep.txt holds); the time on stderr.
    process.stdout.write(formatTable(rows));
    process.stderr.write(`${rows.reduce((n, r) => n + r.scenarios, 0)} scenarios in ${seconds.toFixed(1)} s\n`);
  }
  return EXIT.done;
}
