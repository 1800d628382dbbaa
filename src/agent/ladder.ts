/**
 * The resolution ladder for a call with an attempt marker and no saved result: it may
 * have acted. Each step is tried only if the one below cannot decide:
 *   1. rerun, when a repeat is harmless: read-only, idempotent, or keyed with a key the
 *      service still keeps (an expired key counts as no key);
 *   2. the tool's lookup ("did this happen?"), which says "not done" only when certain;
 *      an error passes the question up;
 *   3. a person, through the approver: "rerun", or "done" with what they found.
 */
import type { AttemptMarker, ToolCall } from '../durable/state';
import type { Tool, ToolContext, ToolOutput } from './tool';

export type LadderStep = 'rerun' | 'lookup' | 'person';

export type LadderDecision =
  | { step: LadderStep; action: 'rerun' }
  | { step: 'lookup'; action: 'done'; output: ToolOutput }
  | { step: 'person'; reason: string };

/** True when the marker's key is still kept by the tool's service. */
export function keyStillKept(tool: Tool, marker: AttemptMarker, now: Date): boolean {
  if (!tool.keyed || marker.key === undefined) return false;
  const started = Date.parse(marker.startedAt);
  return Number.isFinite(started) && now.getTime() < started + tool.keyed.retentionMs;
}

/** Steps 1 and 2. Step 3 (the person) is the loop's, since it pauses and saves. */
export async function climbLadder(
  tool: Tool,
  call: ToolCall,
  marker: AttemptMarker,
  args: Record<string, unknown>,
  ctx: ToolContext,
  now: Date,
): Promise<LadderDecision> {
  if (tool.readOnly || tool.idempotent || keyStillKept(tool, marker, now)) return { step: 'rerun', action: 'rerun' };
  if (tool.lookup) {
    try {
      const a = await tool.lookup(args, ctx);
      if (a.status === 'done') return { step: 'lookup', action: 'done', output: a.output };
      return { step: 'lookup', action: 'rerun' };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return { step: 'person', reason: `The ${call.name} lookup could not tell whether the call happened: ${(e as Error).message}` };
    }
  }
  const why = tool.keyed && marker.key !== undefined ? 'its idempotency key has expired' : 'it sends no idempotency key';
  return { step: 'person', reason: `${call.name} may have acted before the process stopped; ${why} and it has no lookup.` };
}
