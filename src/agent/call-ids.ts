/**
 * Call IDs unique within a run. The idempotency key is a hash of the run ID and the call
 * ID, so two calls sharing an ID would share a key, and a service honouring keys would
 * answer the second call with the first one's result. Some servers (local OpenAI-compatible
 * ones) number calls "call_0", "call_1"... afresh in every reply, or send none. The loop
 * therefore renames, before the reply is saved (save point 2), any call whose ID is empty,
 * already used earlier in the run, or repeated within the reply. The renaming depends only
 * on the run's history, so replaying a recording renames the same way.
 */
import type { Message, ToolCall } from '../core/conversation';

/** Every call ID the run's saved messages already use. */
export function usedCallIds(messages: readonly Message[]): Set<string> {
  const used = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.calls ?? []) used.add(c.id);
    if (m.role === 'tool') for (const r of m.results) used.add(r.callId);
  }
  return used;
}

/**
 * The reply's calls, with each ID that is empty or already in `used` replaced by
 * "<id or call>_t<turn>_<index>" (plus "_<n>" if even that is taken). Adds the IDs to `used`.
 * Calls whose IDs are fine are returned as they are.
 */
export function uniqueCallIds(calls: readonly ToolCall[], used: Set<string>, turn: number): ToolCall[] {
  return calls.map((c, i) => {
    let id = c.id;
    if (id === '' || used.has(id)) {
      const base = `${c.id === '' ? 'call' : c.id}_t${turn}_${i}`;
      id = base;
      for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
    }
    used.add(id);
    return id === c.id ? c : { ...c, id };
  });
}
