/**
 * `triage status`: every run in a store (a state folder or PostgreSQL).
 */
import { flags } from '../flags';
import { STORE_FLAGS, storeFromFlags, usingStore } from '../store-flag';
import { runInfo } from '../../triage/runinfo';
import { EXIT } from '../exitcodes';

export async function cmdStatus(args: string[]): Promise<number> {
  const { values: v } = flags(args, { ...STORE_FLAGS, json: { type: 'boolean', default: false } });
  const store = storeFromFlags(v, 'triage status');
  const runs = (await usingStore(store, (s) => s.listRuns())).map(runInfo);
  if (v.json) {
    process.stdout.write(JSON.stringify({ runs }) + '\n');
    return EXIT.done;
  }
  if (runs.length === 0) process.stdout.write(`no runs in ${store.where}\n`);
  for (const r of runs) {
    if (r.error) {
      process.stdout.write(`${r.runId}  UNREADABLE: ${r.error}\n`);
      continue;
    }
    process.stdout.write(
      `${r.runId}  ${r.task}  phase ${r.phase}  turn ${r.turns}  $${r.dollars!.toFixed(4)}  restarts ${r.restarts}${r.locked ? '  (open in another process)' : ''}\n`,
    );
    for (const p of r.pending) process.stdout.write(`    waiting on a person: ${p.kind} for ${p.tool} (${p.callId})\n`);
    for (const m of r.unresolved) process.stdout.write(`    attempt marker: ${m.tool} (${m.callId}) started ${m.startedAt}${m.keyed ? ', keyed' : ''}\n`);
  }
  return EXIT.done;
}
