/**
 * A child process for the lock tests, run from out/:
 *   node lock-holder.js <stateDir> <runId> hold   opens the run, prints "held", then waits to be killed
 *   node lock-holder.js <stateDir> <runId> try    tries to open the run, prints one JSON line with the outcome
 * Run with no arguments (e.g. by `node --test` over the whole folder) it does nothing.
 */
import { openRun } from '../../../src/store/files/checkpoint';
import { TriageError, LockedError } from '../../../src/core/errors';

async function main(stateDir: string, runId: string, mode: string): Promise<void> {
  if (mode === 'hold') {
    await openRun(stateDir, runId);
    process.stdout.write('held\n');
    setInterval(() => undefined, 60_000);
    return;
  }
  try {
    const { handle } = await openRun(stateDir, runId);
    await handle.close();
    process.stdout.write(JSON.stringify({ ok: true }) + '\n');
  } catch (e) {
    const code = e instanceof TriageError ? e.code : String(e);
    const owner = e instanceof LockedError ? e.owner : undefined;
    process.stdout.write(JSON.stringify({ ok: false, code, owner }) + '\n');
  }
}

const [stateDir, runId, mode] = process.argv.slice(2);
if (stateDir && runId && mode) {
  main(stateDir, runId, mode).catch((e) => {
    process.stderr.write(String(e) + '\n');
    process.exit(1);
  });
}
