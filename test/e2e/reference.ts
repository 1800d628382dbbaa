// A reference run of a task by the headless CLI with the recorded model and every approval
// given: what the workspace must look like after the same run in the editor, and the order
// of its tool calls (to choose where a scenario interrupts a run).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { triageJson } from './cli';

export interface RunInfo {
  runId: string;
  file: string;
  task?: string;
  phase?: string;
  turns?: number;
  restarts?: number;
  locked: boolean;
  pending: { kind: string; callId: string; tool: string }[];
  unresolved: { callId: string; tool: string; startedAt: string; keyed: boolean }[];
  files: { path: string; sha256: string }[];
  error?: string;
}

export interface TrackerIssue {
  number: number;
  cause: string;
  title: string;
  runId?: string;
  key?: string;
  store: string;
}

export interface TaskInfo {
  name: string;
  description: string;
  main: boolean;
  groups: string[];
  checks: number;
}

/**
 * The CLI's arguments naming a run store: `--store URL` for a PostgreSQL store
 * (postgres://…), else `--state DIR`. The functions below take either as `where`.
 */
export function storeArgs(where: string): string[] {
  return /^postgres(ql)?:\/\//.test(where) ? ['--store', where] : ['--state', where];
}

export async function runs(where: string): Promise<RunInfo[]> {
  return (await triageJson<{ runs: RunInfo[] }>(['status', ...storeArgs(where)])).runs;
}

/** The one run in where (a state folder or a store URL); throws naming what is there otherwise. */
export async function onlyRun(where: string): Promise<RunInfo> {
  const all = await runs(where);
  if (all.length !== 1) throw new Error(`expected one run in ${where}, found ${all.length}: ${JSON.stringify(all.map((r) => r.runId))}`);
  return all[0];
}

export async function issues(where: string): Promise<TrackerIssue[]> {
  return (await triageJson<{ issues: TrackerIssue[] }>(['tracker', 'list', ...storeArgs(where)])).issues;
}

export async function mainTask(): Promise<TaskInfo> {
  const { tasks } = await triageJson<{ tasks: TaskInfo[] }>(['tasks']);
  const main = tasks.find((t) => t.main);
  if (!main) throw new Error(`the task catalog has no main task: ${JSON.stringify(tasks.map((t) => t.name))}`);
  return main;
}

export interface Reference {
  /** Workspace-relative path -> final content, for every file the run wrote. */
  files: Map<string, string>;
  /** Tool names in call order over the whole run. */
  toolCalls: { id: string; name: string }[];
  /** Call IDs that wrote a file. */
  writeCalls: Set<string>;
  issues: TrackerIssue[];
  /** The run's turns: one model call each, none repeated. */
  turns: number;
}

interface Checkpoint {
  messages: { role: string; calls?: { id: string; name: string }[] }[];
  files?: Record<string, { callId: string }>;
}

/** Runs task to the end with `triage run --approve yes` in a state folder under dir. */
export async function referenceRun(task: string, dir: string): Promise<Reference> {
  const stateDir = path.join(dir, 'reference-state');
  fs.mkdirSync(stateDir, { recursive: true });
  await triageJson(['run', '--task', task, '--state', stateDir, '--approve', 'yes', '--model', 'recorded', '--quiet']);
  const run = await onlyRun(stateDir);
  if (run.phase !== 'done') throw new Error(`the reference run ${run.runId} ended in phase ${run.phase}, not done`);
  const cp = await triageJson<Checkpoint>(['show', '--state', stateDir, '--run', run.runId]);
  const toolCalls = cp.messages.flatMap((m) => (m.role === 'assistant' ? (m.calls ?? []).map((c) => ({ id: c.id, name: c.name })) : []));
  const workspace = path.join(stateDir, 'workspaces', run.runId);
  const files = new Map<string, string>();
  for (const f of run.files) files.set(f.path, fs.readFileSync(path.join(workspace, f.path), 'utf8'));
  const writeCalls = new Set(Object.values(cp.files ?? {}).map((f) => f.callId));
  return { files, toolCalls, writeCalls, issues: await issues(stateDir), turns: run.turns ?? 0 };
}

/**
 * The first tool whose first call comes after the run's first file write: dying right after
 * it leaves a run interrupted with a file the agent wrote already on record.
 */
export function toolAfterFirstWrite(ref: Reference): string {
  const firstWrite = ref.toolCalls.findIndex((c) => ref.writeCalls.has(c.id));
  if (firstWrite < 0) throw new Error('the reference run wrote no file, so no scenario can change one behind its back');
  const seenBefore = new Set(ref.toolCalls.slice(0, firstWrite + 1).map((c) => c.name));
  const next = ref.toolCalls.slice(firstWrite + 1).find((c) => !seenBefore.has(c.name));
  if (!next) throw new Error(`every tool called after the first write (${ref.toolCalls[firstWrite].name}) was also called before it`);
  return next.name;
}
