/**
 * Start or resume a run: open it (the lock first), build its parts, drive the loop,
 * and always release the lock — after a simulated process death (isProcessDeath) too, as a dying process's lock
 * would be released, with nothing more saved.
 */
import type { RunHandle } from '../store/run-handle';
import type { OpenedRun, RunStore, StoreOptions } from '../store/run-store';
import type { CrashHook } from '../store/crash-points';
import { resultOf, type RunResult, type RunState } from '../store/state';
import type { ModelProvider } from '../model/provider';
import type { Approver } from './approver';
import type { ToolSet } from './tool';
import type { Limits } from './budget';
import { runLoop, type ContextPolicy, type LoopEvent } from './loop';
import type { RunEventStore } from '../store/run-event';
import { RunHistory } from './history';

export interface RunParts {
  model: ModelProvider;
  tools: ToolSet;
  approver: Approver;
  contextPolicy?: ContextPolicy;
}

export interface RunnerOptions {
  /** The run store (files or PostgreSQL), opened by the caller (store/open-store.ts): the agent builds no backend. */
  runStore: RunStore;
  store?: StoreOptions;
  limits?: Limits;
  signal?: AbortSignal;
  crash?: CrashHook;
  onEvent?: (e: LoopEvent) => void;
  /** Where the run's history is recorded (history.ts); none: not recorded. */
  events?: RunEventStore;
  /** Told when an event could not be recorded (the run goes on). */
  onHistoryError?: (e: unknown) => void;
  now?: () => Date;
  /** Called once the run is open and locked, before anything else, finished or not. */
  opened?: (state: RunState, handle: RunHandle) => void | Promise<void>;
  /** Called once the run is open and locked, with its state, to build the model, tools and approver; not for a finished run. */
  parts: (state: RunState, handle: RunHandle) => RunParts | Promise<RunParts>;
}

function storeOptions(o: RunnerOptions): StoreOptions {
  const crash = o.crash ?? o.store?.crash;
  return { ...o.store, ...(crash ? { crash } : {}) };
}

export async function startRun(o: RunnerOptions & { state: RunState }): Promise<RunResult> {
  const handle = await o.runStore.createRun(o.state, storeOptions(o));
  return drive(o, handle, o.state, false);
}

export async function resumeRun(o: RunnerOptions & { runId: string }): Promise<RunResult> {
  const open = await o.runStore.openRun(o.runId, storeOptions(o));
  return drive(o, open.handle, open.state, !open.neverStarted);
}

/** Goes on with a run the caller already opened (openRun: locked and read once); closes it at the end. An enqueued run nobody ran yet starts instead. */
export function continueRun(o: RunnerOptions & { open: OpenedRun }): Promise<RunResult> {
  return drive(o, o.open.handle, o.open.state, !o.open.neverStarted);
}

async function drive(o: RunnerOptions, handle: RunHandle, state: RunState, resumed: boolean): Promise<RunResult> {
  try {
    await o.opened?.(state, handle);
    // A finished run returns its saved answer: nothing to build, no model to call.
    if (state.phase === 'done') return resultOf(state);
    const parts = await o.parts(state, handle);
    const history = o.events ? new RunHistory(o.events, state.runId, o.now, o.onHistoryError) : undefined;
    const onEvent = history
      ? (e: LoopEvent): void => {
          history.onLoopEvent(e);
          o.onEvent?.(e);
        }
      : o.onEvent;
    try {
      const result = await runLoop({
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
        ...(onEvent ? { onEvent } : {}),
        ...(o.now ? { now: o.now } : {}),
      });
      history?.finished(result);
      return result;
    } catch (e) {
      history?.failed(e);
      throw e;
    } finally {
      await history?.settle();
    }
  } finally {
    await handle.close();
  }
}
