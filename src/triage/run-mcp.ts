/**
 * The MCP servers of a run being opened again (a resume, or a worker's claim): which
 * configuration it reads, and for a queued run nobody started yet, its first listing.
 *
 * The configuration is, in this order: the one given now (`--mcp`, for `triage run` or
 * `triage worker`; the editor's servers, read from its settings), the file the run was started with (`triage run --mcp`: its path is saved),
 * or the text a queued run carries (`triage enqueue --mcp`: `${env:NAME}` resolved now, from
 * this process's environment). A queued run's servers are listed at its first start, and the
 * tools saved with the run before anything else happens, as `triage run` saves them before the
 * run is created.
 */
import * as path from 'node:path';
import { BadInputError } from '../core/errors';
import type { RunHandle } from '../store/run-handle';
import { SavePoint } from '../store/save-points';
import type { RunState } from '../store/state';
import { StateEdit } from '../store/state-edit';
import { mcpConfigFromText, readMcpConfig, type McpConfig } from '../mcp/config';
import { MCP_CONFIG_TEXT_OPTION, savedConfigName } from '../mcp/queued';
import { McpSession } from '../mcp/session';

/** The run's MCP session, or undefined when it uses no MCP server. */
export async function runMcpSession(given: string | McpConfig | undefined, state: RunState, handle: RunHandle): Promise<McpSession | undefined> {
  const text = state.config.options?.[MCP_CONFIG_TEXT_OPTION];
  if (!state.config.mcp && text === undefined) return undefined;
  const config = await configOf(given, state, text);
  const cwd = { cwd: state.config.workspace };
  if (state.config.mcp) return McpSession.resume(state.runId, config, state.config.mcp, cwd);
  const session = await McpSession.start(config, cwd);
  try {
    const edit = new StateEdit(state);
    edit.set('config', { ...state.config, mcp: session.saved });
    await handle.save(edit, SavePoint.RunStarted);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
}

async function configOf(given: string | McpConfig | undefined, state: RunState, text: string | undefined): Promise<McpConfig> {
  if (typeof given === 'object') return given; // the editor's servers, read from its settings now
  if (given !== undefined) return readMcpConfig(path.resolve(given));
  const file = state.config.options?.mcpConfig;
  if (file !== undefined) return readMcpConfig(file);
  if (text !== undefined) return mcpConfigFromText(text, savedConfigName(state.runId));
  throw new BadInputError(`Run ${state.runId} uses MCP servers; give --mcp with their configuration file to resume it.`);
}
