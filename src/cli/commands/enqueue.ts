/**
 * `triage enqueue --store URL --task NAME [--workspace DIR] [--model ...] [--keys on|off] [--tracker SPEC] [--mcp FILE]`: adds
 * a run for the fleet's workers to start. Without --workspace the task's sample is copied to
 * the store's workspaces folder (--workspaces DIR, default ~/.durable-triage/workspaces) under
 * the run's ID: every worker that may take the run must see that path (one machine, or a shared
 * volume mounted at the same place). With --mcp, the file's text travels with the run (checked
 * now, `${env:NAME}` left for the worker to resolve: src/mcp/queued.ts); the worker lists the
 * servers' tools when it starts the run. Prints the run ID.
 */
import * as path from 'node:path';
import { flags } from '../flags';
import { BadInputError } from '../../core/errors';
import { queueStoreFromFlags, STORE_FLAGS, usingStore } from '../store-flag';
import { newTriageState } from '../../triage/job';
import { findTask } from '../../triage/tasks/catalog';
import { crashFolderTask, CRASH_FOLDER_TASK } from '../../triage/tasks/crash-folder';
import { MODEL_FLAGS, modelFromFlags } from '../model-flag';
import { EXIT } from '../exitcodes';
import { parseTrackerSpec } from '../../tracker/spec';
import { readMcpConfigText } from '../../mcp/config';
import { checkQueuedMcpConfig, MCP_CONFIG_TEXT_OPTION } from '../../mcp/queued';
import { assertMcpTracker } from '../../triage/mcp-tracker';

export async function cmdEnqueue(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    ...STORE_FLAGS,
    task: { type: 'string' },
    workspace: { type: 'string' },
    crashes: { type: 'string' },
    keys: { type: 'string', default: 'on' },
    ...MODEL_FLAGS,
    tracker: { type: 'string' },
    mcp: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (!v.task) throw new BadInputError('triage enqueue needs --task NAME (see "triage tasks").');
  if (v.keys !== 'on' && v.keys !== 'off') throw new BadInputError(`--keys must be on or off, not "${v.keys}".`);
  const model = modelFromFlags(v);
  const tracker = parseTrackerSpec(v.tracker as string | undefined);
  const mcpFile = v.mcp !== undefined ? path.resolve(v.mcp as string) : undefined;
  const mcpText = mcpFile !== undefined ? await readMcpConfigText(mcpFile) : undefined;
  const mcp = mcpText !== undefined ? checkQueuedMcpConfig(mcpText, mcpFile!) : undefined;
  if (tracker.kind === 'mcp') {
    if (!mcp)
      throw new BadInputError(
        `The tracker ${(v.tracker as string).trim()} is a server of an MCP configuration: give --mcp FILE with that server and its "tracker" section.`,
      );
    assertMcpTracker(tracker.server, mcp);
  }
  const workspace = v.workspace ? path.resolve(v.workspace as string) : undefined;
  if (v.task === CRASH_FOLDER_TASK && !workspace)
    throw new BadInputError(`The ${CRASH_FOLDER_TASK} task works in your own workspace: give it --workspace DIR.`);
  const task = v.task === CRASH_FOLDER_TASK ? await crashFolderTask(workspace!, v.crashes as string | undefined) : findTask(v.task as string);
  const store = queueStoreFromFlags(v, 'triage enqueue');
  const state = await usingStore(store, async () => {
    const s = await newTriageState(
      {
        ...(workspace ? { workspace } : {}),
        ...(model ? { model } : {}),
        keys: v.keys === 'on',
        ...(v.tracker ? { trackerUrl: v.tracker as string } : {}),
        ...(v.crashes ? { crashes: v.crashes as string } : {}),
      },
      task,
      store,
    );
    if (mcpText !== undefined) s.config.options = { ...s.config.options, [MCP_CONFIG_TEXT_OPTION]: mcpText };
    await store.enqueue(s);
    return s;
  });
  if (v.json) process.stdout.write(JSON.stringify({ runId: state.runId, task: state.task, workspace: state.config.workspace }) + '\n');
  else process.stdout.write(`${state.runId}  (${state.task}, workspace ${state.config.workspace})\n`);
  return EXIT.done;
}
