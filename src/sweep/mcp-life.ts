/**
 * One life of an MCP sweep scenario: the same `triage run --mcp` as a user's (runTriage: a new
 * run, or the folder's unfinished one resumed), with a crash hook. A scenario's folder holds its
 * workspace, state folder, the `--mcp` file, the memory server's file and the log the tap, the
 * person and the harness append to.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CrashHook } from '../store/crash-points';
import { runTriage } from '../triage/job';
import { CRASH_FOLDER_TASK } from '../triage/tasks/crash-folder';
import { latestRun } from '../triage/run-admin';
import { McpScriptedModel, MemoryPerson, mcpSweepConfig, writeMcpWorkspace, MCP_SERVER } from './mcp-job';

export interface McpScenarioFiles {
  ws: string;
  state: string;
  memory: string;
  log: string;
  mcp: string;
}

export function scenarioFiles(dir: string): McpScenarioFiles {
  return {
    ws: path.join(dir, 'ws'),
    state: path.join(dir, 'state'),
    memory: path.join(dir, 'memory.jsonl'),
    log: path.join(dir, 'log.jsonl'),
    mcp: path.join(dir, 'mcp.json'),
  };
}

/** Makes a scenario's folder: the workspace and the `--mcp` file. */
export async function prepareScenario(dir: string, lookup: boolean): Promise<McpScenarioFiles> {
  const f = scenarioFiles(dir);
  await writeMcpWorkspace(f.ws);
  await fs.promises.writeFile(f.mcp, JSON.stringify(mcpSweepConfig({ memoryFile: f.memory, log: f.log, lookup })));
  return f;
}

export function appendLog(file: string, e: object): void {
  fs.appendFileSync(file, JSON.stringify(e) + '\n');
}

/** One life: runs (or resumes) the scenario's run; its phase when it ends without crashing. */
export async function mcpLife(dir: string, keys: boolean, syncs: boolean, crash: CrashHook): Promise<string> {
  const f = scenarioFiles(dir);
  const out = await runTriage({
    stateDir: f.state,
    task: CRASH_FOLDER_TASK,
    workspace: f.ws,
    crashes: 'crashes',
    model: new McpScriptedModel(),
    approver: new MemoryPerson(f.memory, (e) => appendLog(f.log, e)),
    mcpConfig: f.mcp,
    keys,
    ...(syncs ? {} : { store: { sync: false } }),
    crash,
    limits: { maxRestarts: 10 },
  });
  return out.result.phase;
}

/**
 * Before a restart: the MCP tools (server names) whose calls the saved run has begun (an attempt
 * marker) and not finished (no saved result): the calls a crash left between the call and its result.
 */
export async function pendingCalls(dir: string): Promise<string[]> {
  const f = scenarioFiles(dir);
  if (!fs.existsSync(f.state)) return [];
  const state = await latestRun(f.state, { task: CRASH_FOLDER_TASK, workspace: f.ws });
  if (!state) return [];
  const prefix = `${MCP_SERVER}__`;
  return Object.values(state.attempts ?? {})
    .filter((m) => state.results?.[m.callId] === undefined && m.tool.startsWith(prefix))
    .map((m) => m.tool.slice(prefix.length));
}
