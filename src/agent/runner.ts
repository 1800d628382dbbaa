/**
 * Start or resume a run: open it (the lock first), build its parts, drive the loop,
 * and always release the lock — after a SimulatedCrash too, as a dying process's lock
 * would be released, with nothing more saved.
 */
import { createRun, openRun, type StoreOptions } from '../durable/checkpoint';
import type { RunHandle } from '../durable/handle';
import type { CrashHook } from '../durable/savepoints';
import type { RunResult, RunState } from '../durable/state';
import type { ModelProvider } from '../model/provider';
import type { Approver } from './approver';
import type { ToolSet } from './tool';
import type { Limits } from './budget';
import { runLoop, type ContextPolicy, type LoopEvent } from './loop';

export interface RunParts {
  model: ModelProvider;
  tools: ToolSet;
  approver: Approver;
  contextPolicy?: ContextPolicy;
}

export interface RunnerOptions {
  stateDir: string;
  store?: StoreOptions;
  limits?: Limits;
  signal?: AbortSignal;
  crash?: CrashHook;
  onEvent?: (e: LoopEvent) => void;
  now?: () => Date;
  /** Called once the run is open and locked, with its state, to build the model, tools and approver. */
  parts: (state: RunState, handle: RunHandle) => RunParts | Promise<RunParts>;
}

function storeOptions(o: RunnerOptions): StoreOptions {
  const crash = o.crash ?? o.store?.crash;
  return { ...o.store, ...(crash ? { crash } : {}) };
}

export async function startRun(o: RunnerOptions & { state: RunState }): Promise<RunResult> {
  const handle = await createRun(o.stateDir, o.state, storeOptions(o));
  return drive(o, handle, o.state, false);
}

export async function resumeRun(o: RunnerOptions & { runId: string }): Promise<RunResult> {
  const { handle, state } = await openRun(o.stateDir, o.runId, storeOptions(o));
  return drive(o, handle, state, true);
}

async function drive(o: RunnerOptions, handle: RunHandle, state: RunState, resumed: boolean): Promise<RunResult> {
  try {
    const parts = await o.parts(state, handle);
    return await runLoop({
      handle,
      state,
      resumed,
      model: parts.model,
      tools: parts.tools,
      approver: parts.approver,
      ...(parts.contextPolicy ? { contextPolicy: parts.contextPolicy } : {}),
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.crash ? { crash: o.crash } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      ...(o.now ? { now: o.now } : {}),
    });
  } finally {
    await handle.close();
  }
}
