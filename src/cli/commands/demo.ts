/**
 * `triage demo`: the chapter's demonstration on the main task, with the recorded model
 * (no API key): run, die by SIGKILL right after the first code_patch acts, show the
 * checkpoint, resume, show exactly one issue per crash group, and run the same command once
 * more: the finished run's saved result, with no model call.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { flags } from '../flags';
import { mainTask } from '../../triage/tasks/catalog';
import { openStateFolder } from '../../store/open-store';
import { EXIT } from '../exitcodes';
import { BadInputError } from '../../core/errors';
import { nodeChildEnv } from '../../runners/node-child';

export async function cmdDemo(args: string[]): Promise<number> {
  const { values: v } = flags(args, { state: { type: 'string' } });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const state = path.resolve((v.state as string | undefined) ?? path.join('.triage-state', `demo-${stamp}`));
  const store = openStateFolder(state);
  if ((await store.listRuns()).length > 0) throw new BadInputError(`${state} already holds runs; give the demo a fresh --state folder.`);
  const task = mainTask().name;
  const say = (s: string): boolean => process.stdout.write(`\n== ${s}\n`);
  const triage = (a: string[]) => spawnSync(process.execPath, [process.argv[1], ...a], { stdio: ['ignore', 'inherit', 'inherit'], env: nodeChildEnv() });

  say(`1. triage run --task ${task} --state ${state} --die-after code_patch --approve yes`);
  const first = triage(['run', '--task', task, '--state', state, '--die-after', 'code_patch', '--approve', 'yes', '--quiet']);
  process.stdout.write(`(the process ended by ${first.signal ?? `exit ${first.status}`})\n`);
  if (first.signal !== 'SIGKILL') {
    process.stderr.write('triage: the first run was expected to die by SIGKILL after code_patch\n');
    return EXIT.internal;
  }
  const [run] = await store.listRuns();
  const s = await store.readRun(run.runId);
  say(`2. the checkpoint ${run.file}`);
  process.stdout.write(
    `phase ${s.phase}, turns ${s.turns}, attempt markers: ${
      Object.values(s.attempts ?? {})
        .map((m) => `${m.tool} (${m.callId})`)
        .join(', ') || 'none'
    }\n`,
  );

  say(`3. the same command again resumes: triage run --task ${task} --state ${state} --approve yes`);
  const second = triage(['run', '--task', task, '--state', state, '--approve', 'yes']);

  say(`4. triage tracker list --state ${state}`);
  triage(['tracker', 'list', '--state', state]);

  say(`5. the same command once more: the run is done, so its saved result comes back with no model call and nothing filed`);
  const third = spawnSync(process.execPath, [process.argv[1], 'run', '--task', task, '--state', state, '--approve', 'yes', '--json', '--quiet'], {
    encoding: 'utf8',
    env: nodeChildEnv(),
  });
  const again = JSON.parse(third.stdout.trim().split('\n').pop() ?? '{}') as {
    runId?: string;
    modelCalls?: number;
    finishedBefore?: boolean;
    issues?: unknown[];
  };
  process.stdout.write(
    `run ${again.runId}: already finished ${again.finishedBefore === true ? 'yes' : 'no'}, model calls ${again.modelCalls}, issues ${again.issues?.length}\n`,
  );
  if (second.status !== EXIT.done) return second.status ?? EXIT.internal;
  return third.status === EXIT.done && again.modelCalls === 0 ? EXIT.done : EXIT.internal;
}
