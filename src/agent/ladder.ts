/**
 * The resolution ladder for a call with an attempt marker and no saved result: it may
 * have acted. Each step is tried only if the one below cannot decide:
 *   1. rerun, when a repeat is harmless: read-only, idempotent, or keyed with a key the
 *      service still keeps (by the retention it declared before the call, saved with the
 *      marker; an expired key counts as no key); the rerun sends the SAME key;
 *   2. the tool's lookup ("did this happen?"), which says "not done" only when certain;
 *      an error passes the question up;
 *   3. a person, through the approver: "rerun", or "done" with what they found.
 * Steps 1 and 2 are decided here; step 3 is the loop's, since it pauses and saves.
 */
import type { AttemptMarker } from '../store/state';
import type { ToolCall } from '../core/conversation';
import { LockCompromisedError, ServiceStopError } from '../core/errors';
import { isProcessDeath } from '../core/process-death';
import type { Tool, ToolContext, ToolOutput } from './tool';

export type LadderStep = 'rerun' | 'lookup' | 'person';

export type LadderDecision =
  /** Step 1: a repeat is harmless. */
  | { step: 'rerun'; action: 'rerun' }
  /** Step 2: the lookup is certain the call did not happen. */
  | { step: 'lookup'; action: 'rerun' }
  /** Step 2: the lookup found it; its output becomes the call's result. */
  | { step: 'lookup'; action: 'done'; output: ToolOutput }
  /** Step 3: ask a person. `lookupFailed` when a lookup was tried and could not tell. */
  | { step: 'person'; reason: string; lookupFailed: boolean };

/**
 * How long the service keeps the marker's key: the retention it declared before the call
 * (saved with the marker), or, for a marker saved without one, what it says now. Undefined
 * when the call sent no key, or the service cannot say.
 */
async function retentionFor(tool: Tool, marker: AttemptMarker, signal: AbortSignal): Promise<number | undefined> {
  if (!tool.keyed || marker.key === undefined) return undefined;
  if (marker.retentionMs !== undefined) return marker.retentionMs;
  try {
    return await tool.keyed.retention(signal);
  } catch (e) {
    if (isProcessDeath(e) || e instanceof LockCompromisedError || signal.aborted) throw e;
    return undefined;
  }
}

function keptAt(marker: AttemptMarker, retentionMs: number | undefined, now: Date): boolean {
  const started = Date.parse(marker.startedAt);
  return retentionMs !== undefined && Number.isFinite(started) && now.getTime() < started + retentionMs;
}

/** True when the marker's key is still kept by the tool's service (see retentionFor); an unknown retention is not "kept". */
export async function keyStillKept(tool: Tool, marker: AttemptMarker, now: Date, signal: AbortSignal): Promise<boolean> {
  return keptAt(marker, await retentionFor(tool, marker, signal), now);
}

/**
 * Steps 1 and 2. A lookup that throws passes the question up to the person, except a
 * simulated crash, a lost lock, a cancellation (ctx.signal aborted), or a service that cannot be
 * used now (ServiceStopError: the run stops again, and the next resume asks the lookup again).
 */
export async function climbLadder(tool: Tool, call: ToolCall, marker: AttemptMarker, args: unknown, ctx: ToolContext, now: Date): Promise<LadderDecision> {
  if (tool.readOnly === true || tool.idempotent === true) return { step: 'rerun', action: 'rerun' };
  const retention = await retentionFor(tool, marker, ctx.signal);
  if (keptAt(marker, retention, now)) return { step: 'rerun', action: 'rerun' };
  if (tool.lookup) {
    try {
      const a = await tool.lookup(args, ctx);
      if (a.status === 'done') return { step: 'lookup', action: 'done', output: a.output };
      return { step: 'lookup', action: 'rerun' };
    } catch (e) {
      if (isProcessDeath(e) || e instanceof LockCompromisedError || e instanceof ServiceStopError || ctx.signal.aborted) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      return { step: 'person', lookupFailed: true, reason: `The ${call.name} lookup could not tell whether the call happened: ${msg}` };
    }
  }
  return {
    step: 'person',
    lookupFailed: false,
    reason: `${call.name} may have acted before the process stopped; ${whyNotRerun(tool, marker, retention)} and it has no lookup.`,
  };
}

function whyNotRerun(tool: Tool, marker: AttemptMarker, retention: number | undefined): string {
  if (!tool.keyed) return 'it sends no idempotency key';
  if (marker.key === undefined) return 'it was sent without an idempotency key (keys were off)';
  if (retention === undefined) return 'its service could not say how long it keeps idempotency keys';
  return `its idempotency key has expired (the service keeps keys ${formatMs(retention)})`;
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
