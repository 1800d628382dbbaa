/**
 * One life of an effects-sweep scenario that logs what the parent counts (src/sweep/kill.ts's
 * countLog): model requests, saved replies, saves, questions, the run's creation and ID. The
 * SIGKILL sweep runs the life it kills in a child process (child.ts) and the lives after it here.
 */
import * as fs from 'node:fs';
import { runTriage } from '../../../src/triage/job';
import type { CrashHook } from '../../../src/store/crash-points';
import type { LoopEvent } from '../../../src/agent/loop';
import type { ModelRequest } from '../../../src/model/provider';
import { newCounters, noteSavedReply } from '../../../src/sweep/job';
import { EffectsModel, EffectsPerson, runOptions, type Places } from './script';

export interface LoggedLife {
  places: Places;
  state: string;
  keys: boolean;
  log: string;
}

/** Runs the scenario's command once; the run's phase when it ends. */
export async function loggedLife(cfg: LoggedLife, crash?: CrashHook): Promise<string> {
  const log = (e: object): void => fs.appendFileSync(cfg.log, JSON.stringify(e) + '\n');
  const c = newCounters();
  const model = new EffectsModel(c);
  const complete = model.complete.bind(model);
  model.complete = async (req: ModelRequest) => {
    log({ t: 'request', turn: req.turn });
    return complete(req);
  };
  const person = new EffectsPerson(c, cfg.places);
  const resolve = person.resolve.bind(person);
  person.resolve = async (q) => {
    log({ t: 'question' });
    return resolve(q);
  };
  const r = await runTriage({
    ...runOptions({ ...cfg.places, state: cfg.state }, cfg.keys),
    model,
    approver: person,
    ...(crash ? { crash } : {}),
    onRunOpened: (runId) => log({ t: 'run', runId }),
    wrapModel: (m) => {
      log({ t: 'created' });
      return m;
    },
    onEvent: (e: LoopEvent) => {
      if (e.type === 'saved') log({ t: 'saved' });
      const turn = noteSavedReply(c, e);
      if (turn !== undefined) log({ t: 'saved-reply', turn });
    },
  });
  return r.result.phase;
}
