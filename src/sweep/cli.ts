/**
 * `triage sweep`: the crash sweep's table (in-process; with --kill the SIGKILL sweep; with
 * --power-loss the power-loss sweep); with --pg URL instead, the PostgreSQL rows (in-process and
 * SIGKILL, the runs in that database); with --mcp instead, the MCP sweep's table (mcp-sweep.ts:
 * a run calling @modelcontextprotocol/server-memory's tools, with and without a lookup).
 *
 * The harness's own entry: bin/triage.js loads this file (out/src/sweep/cli.js, or dist/sweep.js
 * beside the bundle) for `triage sweep` instead of the CLI, so no product module imports
 * src/sweep. It parses flags, reports errors and exits with the statuses of the CLI's other
 * commands (src/cli/flags.ts, exitcodes.ts); the CLI's usage lists it.
 */
import { flags } from '../cli/flags';
import { pgSweepRows, sweepRows } from './sweeps';
import { BadInputError } from '../core/errors';
import { isPgUrl } from '../store/store-url';
import { formatTable } from './table';
import { mcpSweepRows } from './mcp-sweep';
import { formatMcpTable, mcpSweepNotes } from './mcp-table';
import { EXIT } from '../cli/exitcodes';
import { reportFailure } from '../cli/report-failure';

export async function cmdSweep(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    kill: { type: 'boolean', default: false },
    'power-loss': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    pg: { type: 'string' },
    mcp: { type: 'boolean', default: false },
  });
  const started = Date.now();
  if (v.mcp === true) {
    if (v.kill === true || v['power-loss'] === true || v.pg !== undefined)
      throw new BadInputError('--mcp is a sweep of its own (its own table): give it alone (with --json if you like), not with --kill, --power-loss or --pg.');
    return mcpSweep(v.json === true, started);
  }
  const pg = v.pg as string | undefined;
  if (pg !== undefined && !isPgUrl(pg)) throw new BadInputError(`--pg needs a postgres:// URL (an empty database the sweep may fill), not "${pg}".`);
  const rows = pg ? await pgSweepRows(pg) : await sweepRows({ kill: v.kill === true, power: v['power-loss'] === true });
  const seconds = (Date.now() - started) / 1000;
  if (v.json) process.stdout.write(JSON.stringify({ rows, seconds }) + '\n');
  else {
    // The table alone on stdout (it is what test/data/sweep.txt holds); the time on stderr.
    process.stdout.write(formatTable(rows));
    process.stderr.write(`${rows.reduce((n, r) => n + r.scenarios, 0)} scenarios in ${seconds.toFixed(1)} s\n`);
    for (const r of rows) for (const note of r.notes) process.stderr.write(`${r.kind} keys ${r.keys ? 'on' : 'off'} ${r.crashes}: ${note}\n`);
  }
  return EXIT.done;
}

/** `triage sweep --mcp`: the MCP sweep's table on stdout (what test/data/sweep-mcp.txt holds), its time and notes on stderr. */
async function mcpSweep(json: boolean, started: number): Promise<number> {
  const rows = await mcpSweepRows();
  const seconds = (Date.now() - started) / 1000;
  if (json) process.stdout.write(JSON.stringify({ rows, seconds }) + '\n');
  else {
    process.stdout.write(formatMcpTable(rows));
    process.stderr.write(`${rows.reduce((n, r) => n + r.scenarios, 0)} scenarios in ${seconds.toFixed(1)} s\n`);
    const notes = mcpSweepNotes(rows);
    if (notes) process.stderr.write(notes + '\n');
  }
  return EXIT.done;
}

/** `triage sweep ARGS` (the arguments after `sweep`): the exit status, errors reported as the CLI's main reports them. */
export async function main(args: string[]): Promise<number> {
  try {
    return await cmdSweep(args);
  } catch (e) {
    return reportFailure(e);
  }
}
