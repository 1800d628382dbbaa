/**
 * A tool call rendered for a person: its title, its arguments and its result as blocks, as its
 * tool's view says (src/tools/view.ts; a patch as a diff, an issue as its title and body, a
 * test run as passed/failed with the failures). A call of a tool with no view shows its
 * arguments as JSON; arguments that are not a JSON object are shown as the model wrote them.
 */
import type { ToolCall, ToolResult } from '../core/conversation';
import { clip, plainResult, withPath, type CallLayout, type CallLook, type CauseMade, type LooseArgs, type ResultLook } from '../tools/view';
import { toolView } from '../tools/views';

function parse(args: string): LooseArgs | undefined {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as LooseArgs) : undefined;
  } catch {
    return undefined;
  }
}

/** Title, path and argument blocks of a call. */
export function describeCall(call: ToolCall): CallLook {
  const a = parse(call.args);
  if (!a)
    return {
      title: `${call.name} (arguments are not valid JSON)`,
      args: [{ kind: 'code', text: clip(call.args), label: 'arguments as the model wrote them' }],
    };
  const view = toolView(call.name);
  if (view) return view.call(a);
  return withPath(a, { title: call.name, args: [{ kind: 'code', text: clip(JSON.stringify(a, null, 2)), label: 'arguments' }] });
}

/** What the Run panel needs to lay out a call of `tool` beyond its blocks (its icon; whether it is unfolded; whether it links a diff). */
export function callLayout(tool: string): CallLayout {
  const view = toolView(tool);
  if (!view) return {};
  const l: CallLayout = { icon: view.icon };
  if (view.unfolded) l.unfolded = true;
  if (view.writesPath) l.writesPath = true;
  return l;
}

/** A call's result: a one-line summary, blocks to show under it, and the bytes it added to the conversation. */
export function describeResult(call: ToolCall, r: ToolResult): ResultLook {
  const view = toolView(call.name);
  const look = view?.result ? view.result(r) : plainResult(r);
  return { ...look, bytes: new TextEncoder().encode(r.content).length };
}

/** The issue a call's result says was filed (a filing tool's result), else undefined. */
export function filedIssue(call: Pick<ToolCall, 'name'>, r: ToolResult): { number: number; title: string; url?: string } | undefined {
  return toolView(call.name)?.filed?.(r);
}

/** The cause a call names (its `cause` argument), and what its successful result made for it; undefined for a call of no cause. */
export function causeMade(call: ToolCall, r: ToolResult): { cause: string; made: CauseMade } | undefined {
  const a = parse(call.args);
  const cause = typeof a?.cause === 'string' ? a.cause : undefined;
  const made = cause !== undefined ? toolView(call.name)?.made?.(r) : undefined;
  return cause !== undefined && made ? { cause, made } : undefined;
}

/** The cause a call names, if any. */
export function causeOf(call: ToolCall): string | undefined {
  const a = parse(call.args);
  return typeof a?.cause === 'string' ? a.cause : undefined;
}
