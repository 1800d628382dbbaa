/**
 * Worker A of the fencing tests, as its own process: runs a task on a PostgreSQL store with a
 * short lease and stops ITSELF (SIGSTOP) at a chosen point, so the test can keep it frozen past
 * its lease, let worker B take the run over, and then resume it (SIGCONT).
 *   stopAt 'before-act':  right after the attempt marker of `tool` was saved, before the call acts;
 *   stopAt 'after-act':   right after `tool` acted, before its result was saved.
 * Prints one JSON line on exit: {phase} or {error, code}.
 */
import type { RunState } from '../../../src/store/state';
import { SavePoint } from '../../../src/store/save-points';
import { TOOL_ACTED, type CrashHook } from '../../../src/store/crash-points';
import { PgRunStore } from '../../../src/store/pg/pg-run-store';
import { runTriage } from '../../../src/triage/job';
import { TerminalApprover } from '../../../src/cli/terminal-approver';
import { TriageError } from '../../../src/core/errors';

export interface FrozenChildConfig {
  url: string;
  workspace: string;
  task: string;
  leaseMs: number;
  tool: string;
  stopAt: 'before-act' | 'after-act';
}

async function main(cfg: FrozenChildConfig): Promise<void> {
  const store = new PgRunStore(cfg.url, { queryTimeoutMs: 5000 });
  let state: RunState | undefined;
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    process.stdout.write(JSON.stringify({ stopping: true }) + '\n');
    process.kill(process.pid, 'SIGSTOP');
  };
  const crash: CrashHook = (point, detail) => {
    if (cfg.stopAt === 'after-act' && point === TOOL_ACTED && detail?.tool === cfg.tool) stop();
    if (cfg.stopAt === 'before-act' && point === SavePoint.AttemptMarked) {
      const marked = Object.values(state?.attempts ?? {}).some((m) => m.tool === cfg.tool && !state?.results?.[m.callId]);
      if (marked) stop();
    }
  };
  try {
    const out = await runTriage({
      runStore: store,
      task: cfg.task,
      workspace: cfg.workspace,
      approver: new TerminalApprover('yes'),
      store: { staleMs: cfg.leaseMs },
      crash,
      onRunOpened: (_id, s) => {
        state = s;
      },
    });
    process.stdout.write(JSON.stringify({ phase: out.result.phase }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: (e as Error).message, code: e instanceof TriageError ? e.code : 'internal' }) + '\n');
  } finally {
    await store.close();
  }
}

void main(JSON.parse(process.argv[2]) as FrozenChildConfig);
