/**
 * The life of an effects-sweep scenario that is killed, as its own process (see kill.ts): the
 * scenario's runTriage with syncs on, sending itself SIGKILL at the chosen crash point. Prints
 * {points, phase} as JSON when it ends unkilled (a clean run).
 */
import type { CrashHook } from '../../../src/store/crash-points';
import { loggedLife, type LoggedLife } from './life';

export interface EffectsChildConfig extends LoggedLife {
  /** SIGKILL at the N-th crash point (1-based); 0 = run clean. */
  crashAt: number;
}

async function life(cfg: EffectsChildConfig): Promise<void> {
  let points = 0;
  const crash: CrashHook = () => {
    points++;
    if (points === cfg.crashAt) process.kill(process.pid, 'SIGKILL');
  };
  const phase = await loggedLife(cfg, crash);
  process.stdout.write(JSON.stringify({ points, phase }) + '\n');
}

life(JSON.parse(process.argv[2]) as EffectsChildConfig).catch((e) => {
  process.stderr.write(String((e as Error)?.stack ?? e) + '\n');
  process.exitCode = 1;
});
