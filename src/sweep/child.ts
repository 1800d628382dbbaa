/**
 * One life of a SIGKILL-sweep scenario, as its own process (see kill.ts).
 * Prints {points, phase} as JSON when it ends without being killed.
 */
import * as fs from 'node:fs';
import type { RunState } from '../store/state';
import type { CrashHook } from '../store/crash-points';
import { toolSet } from '../agent/tool';
import type { LoopEvent } from '../agent/loop';
import { triageTools } from '../tools';
import { TrackerClient } from '../tracker/client';
import { ScriptedModel, ScriptedPerson, newCounters, noteSavedReply, sweepCommand, type SweepCounters } from './job';
import type { ChildConfig } from './kill';
import type { ModelRequest } from '../model/provider';
import { openStateFolder, openStore } from '../store/open-store';

async function life(cfg: ChildConfig): Promise<void> {
  const log = (e: object): void => fs.appendFileSync(cfg.log, JSON.stringify(e) + '\n');
  const c: SweepCounters = newCounters();
  // Counters that also go to the shared log, so the parent can count across processes.
  const model = new ScriptedModel(c);
  const complete = model.complete.bind(model);
  model.complete = async (req: ModelRequest, signal?: AbortSignal) => {
    log({ t: 'request', turn: req.turn });
    return complete(req, signal);
  };
  const tracker = new TrackerClient(cfg.trackerUrl);
  const person = new ScriptedPerson(c, tracker, cfg.workspace);
  const resolve = person.resolve.bind(person);
  person.resolve = async (q) => {
    log({ t: 'question' });
    return resolve(q);
  };
  let points = 0;
  const crash: CrashHook = () => {
    points++;
    if (points === cfg.crashAt) process.kill(process.pid, 'SIGKILL');
  };
  const onEvent = (e: LoopEvent): void => {
    if (e.type === 'saved') log({ t: 'saved' });
    const turn = noteSavedReply(c, e);
    if (turn !== undefined) log({ t: 'saved-reply', turn });
  };
  const parts = (st: RunState) => {
    log({ t: 'created' });
    return { model, tools: toolSet(triageTools({ tracker, keys: st.config.keys })), approver: person };
  };
  const store = cfg.pgUrl ? openStore(cfg.pgUrl) : openStateFolder(cfg.stateDir);
  try {
    const r = await sweepCommand({
      runStore: store,
      runId: cfg.runId,
      workspace: cfg.workspace,
      keys: cfg.keys,
      crash,
      onEvent,
      parts,
      limits: { maxRestarts: 10 },
    });
    process.stdout.write(JSON.stringify({ points, phase: r.phase }) + '\n');
  } finally {
    await store.close();
  }
}

life(JSON.parse(process.argv[2]) as ChildConfig).catch((e) => {
  process.stderr.write(String((e as Error)?.stack ?? e) + '\n');
  process.exitCode = 1;
});
