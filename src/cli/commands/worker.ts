/**
 * `triage worker --store URL [--concurrency N] [--approve ask|yes|no] [--exit-when-idle] [--mcp FILE] [--max-turns N ...]`:
 * one worker of a fleet on a PostgreSQL store (triage/worker.ts). --mcp: the MCP configuration
 * for the runs it takes that use MCP servers, instead of the one each run carries. Ctrl-C or SIGTERM stops it:
 * runs in progress save where they stopped and stay resumable by any worker.
 */
import * as path from 'node:path';
import { flags } from '../flags';
import { readMcpConfig } from '../../mcp/config';
import { BadInputError } from '../../core/errors';
import { queueStoreFromFlags, STORE_FLAGS, usingStore } from '../store-flag';
import { runWorker } from '../../triage/worker';
import type { ApproveMode } from '../../triage/stored-answers';
import { EXIT } from '../exitcodes';
import { describeEvent } from '../progress';
import { interruptSignal } from '../interrupt';
import { LIMIT_FLAGS, limitsFromFlags } from '../limit-flags';

function positiveInt(raw: unknown, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new BadInputError(`--${flag} must be a whole number of at least 1, not "${String(raw)}".`);
  return n;
}

export async function cmdWorker(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    ...STORE_FLAGS,
    concurrency: { type: 'string', default: '1' },
    approve: { type: 'string', default: 'ask' },
    'exit-when-idle': { type: 'boolean', default: false },
    'poll-ms': { type: 'string' },
    'lease-ms': { type: 'string' },
    mcp: { type: 'string' },
    ...LIMIT_FLAGS,
    json: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  });
  const approve = v.approve as string;
  if (!['ask', 'yes', 'no'].includes(approve)) throw new BadInputError(`--approve must be ask, yes or no, not "${approve}".`);
  const concurrency = positiveInt(v.concurrency, 'concurrency')!;
  const pollMs = positiveInt(v['poll-ms'], 'poll-ms');
  const leaseMs = positiveInt(v['lease-ms'], 'lease-ms');
  const limits = limitsFromFlags(v);
  const mcpConfig = v.mcp !== undefined ? path.resolve(v.mcp as string) : undefined;
  if (mcpConfig !== undefined) await readMcpConfig(mcpConfig); // a file it cannot use is refused before any run is taken
  const store = queueStoreFromFlags(v, 'triage worker');
  const interrupt = interruptSignal();
  const log = (s: string): void => {
    if (!v.quiet) process.stderr.write(s + '\n');
  };
  log(`worker on ${store.where}: ${concurrency} at a time, approvals: ${approve}${v['exit-when-idle'] ? ', exits when idle' : ''}`);
  try {
    const runs = await usingStore(store, () =>
      runWorker({
        store,
        concurrency,
        approve: approve as ApproveMode,
        exitWhenIdle: v['exit-when-idle'] === true,
        limits,
        ...(pollMs ? { pollMs } : {}),
        ...(leaseMs ? { leaseMs } : {}),
        ...(mcpConfig !== undefined ? { mcpConfig } : {}),
        signal: interrupt.signal,
        log,
        onEvent: (runId, e) => {
          const line = describeEvent(e);
          if (line) log(`${runId}: ${line}`);
        },
      }),
    );
    if (v.json) process.stdout.write(JSON.stringify({ runs }) + '\n');
    else for (const r of runs) process.stdout.write(`${r.runId}: ${r.ended}${r.error ? ` (${r.error})` : ''}\n`);
  } finally {
    interrupt.release();
  }
  return interrupt.signal.aborted ? EXIT.cancelled : EXIT.done;
}
