/**
 * Our request in the shape VS Code's Language Model API takes, without the vscode classes
 * (../lm-provider.ts turns these parts into LanguageModelTextPart / ToolCallPart / ToolResultPart).
 *
 * - The API has no system role: the system prompt opens the first user message.
 * - The summary (if any) replaces older messages, as for every provider (withSummary).
 * - Consecutive messages of one role are merged; tool results open a user message.
 * - A call's input must be an object: arguments that are not a JSON object (the model wrote
 *   invalid JSON) are sent as {}; the loop's error result tells the model what went wrong.
 */
import type { Message } from '../../core/conversation';
import type { ModelRequest } from '../../model/provider';
import { withSummary } from '../../model/context';

export type LmPart =
  | { type: 'text'; text: string }
  | { type: 'call'; callId: string; name: string; input: Record<string, unknown> }
  | { type: 'result'; callId: string; text: string };

export interface LmTurn {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

export function callInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // invalid JSON: sent as {}
  }
  return {};
}

function turnOf(m: Message): LmTurn {
  switch (m.role) {
    case 'user':
      return { role: 'user', parts: m.content === '' ? [] : [{ type: 'text', text: m.content }] };
    case 'assistant': {
      const parts: LmPart[] = [];
      if (m.text) parts.push({ type: 'text', text: m.text });
      for (const c of m.calls ?? []) parts.push({ type: 'call', callId: c.id, name: c.name, input: callInput(c.args) });
      return { role: 'assistant', parts };
    }
    case 'tool':
      return {
        role: 'user',
        parts: m.results.map((r) => ({
          type: 'result',
          callId: r.callId,
          text: `${r.isError ? 'ERROR: ' : ''}${r.content === '' ? '(no output)' : r.content}`,
        })),
      };
  }
}

export function lmTurns(req: Pick<ModelRequest, 'system' | 'messages' | 'summary'>): LmTurn[] {
  const out: LmTurn[] = [];
  for (const m of withSummary(req)) {
    const t = turnOf(m);
    if (t.parts.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === t.role) last.parts.push(...t.parts);
    else out.push(t);
  }
  for (const t of out) if (t.role === 'user') t.parts = [...t.parts.filter((p) => p.type === 'result'), ...t.parts.filter((p) => p.type !== 'result')];
  if (req.system !== '') {
    const sys: LmPart = { type: 'text', text: req.system };
    if (out[0]?.role === 'user') {
      // Results must come first in a user message, but the first message never has any (it answers no call).
      out[0].parts.unshift(sys);
    } else out.unshift({ role: 'user', parts: [sys] });
  }
  if (out.length === 0 || out[0].role !== 'user') out.unshift({ role: 'user', parts: [{ type: 'text', text: 'Continue.' }] });
  return out;
}
