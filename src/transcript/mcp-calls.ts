/**
 * A call of an MCP server's tool, as a person reads it: the run saved the servers' tools at its
 * start (`config.mcp`), so a call the model made by its model-safe name (`memory__create_entities`)
 * is titled by its server and tool (`memory/create_entities`, as approvals and the configuration
 * name it), with the plug icon, and its arguments labelled as sent to that server.
 */
import type { RunState } from '../store/state';
import type { CallView } from '../core/transcript';

/** The server and tool a call's name stands for in this run, or undefined when it is not an MCP tool of it. */
export function mcpToolOf(state: Pick<RunState, 'config'>, name: string): { server: string; tool: string } | undefined {
  for (const s of state.config.mcp ?? []) {
    const t = s.tools.find((x) => x.as === name);
    if (t) return { server: s.server, tool: t.name };
  }
  return undefined;
}

/** What an MCP call's view says instead of the generic one: its title, icon and the label of its arguments. */
export function mcpCallLook(view: Pick<CallView, 'args'>, m: { server: string; tool: string }): Pick<CallView, 'title' | 'icon' | 'args'> {
  return {
    title: `${m.server}/${m.tool} (MCP)`,
    icon: 'plug',
    args: view.args.map((b) => (b.kind === 'code' && b.label === 'arguments' ? { ...b, label: `arguments sent to MCP server "${m.server}"` } : b)),
  };
}
