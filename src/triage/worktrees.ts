/**
 * The cause worktrees runs with pull requests left under the store's worktrees folder
 * (`<worktrees>/<runId>/<cause>`, job.ts' worktreesDir): listed by run with the run's phase
 * (`triage worktrees`), removed with their run when it is deleted, and pruned for the runs that
 * are done or no longer in the store (`--prune`). Branches are always kept: a pull request may
 * be made of one, and a person may want its commit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withStore, type StoreRef } from '../store/open-store';
import type { RunStore } from '../store/run-store';
import { removeWorktree } from '../git/worktree-removal';

/** Where the cause branches' worktrees go: `worktrees` beside the store's workspaces folder (in a state folder: <state>/worktrees). */
export function worktreesDir(store: Pick<RunStore, 'workspacesDir'>): string {
  return path.join(path.dirname(store.workspacesDir), 'worktrees');
}

export interface RunWorktrees {
  runId: string;
  /** The run's phase; "deleted" when the store has no such run, "unreadable" when its checkpoint cannot be read. */
  phase: string;
  /** The worktree folders (absolute). */
  worktrees: string[];
  /** What their readiness records say was done to each (the install, the venv, Go's cache). */
  ready: Record<string, string[]>;
}

function worktreeFolders(runDir: string): string[] {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(runDir, { withFileTypes: true });
  } catch {
    return [];
  }
  return names
    .filter((d) => d.isDirectory())
    .map((d) => path.join(runDir, d.name))
    .sort();
}

function readySteps(worktree: string): string[] {
  try {
    const r = JSON.parse(fs.readFileSync(`${worktree}.ready.json`, 'utf8')) as { steps?: { ecosystem: string; what: string; ms: number }[] };
    return (r.steps ?? []).map((s) => `${s.ecosystem}: ${s.what} (${(s.ms / 1000).toFixed(1)} s)`);
  } catch {
    return [];
  }
}

/** Every run folder under the worktrees folder, with its run's phase. */
export async function listWorktrees(store: RunStore): Promise<RunWorktrees[]> {
  const root = worktreesDir(store);
  let runDirs: string[];
  try {
    runDirs = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  const listed = await store.listRuns();
  const byId = new Map(listed.map((r) => [r.runId, r]));
  return runDirs.map((runId) => {
    const r = byId.get(runId);
    const phase = !r ? 'deleted' : r.state ? r.state.phase : 'unreadable';
    const worktrees = worktreeFolders(path.join(root, runId));
    return { runId, phase, worktrees, ready: Object.fromEntries(worktrees.map((w) => [w, readySteps(w)])) };
  });
}

/** Removes a run's worktrees (and its folder); the worktrees removed. */
export async function removeRunWorktrees(store: RunStore, runId: string): Promise<string[]> {
  const runDir = path.join(worktreesDir(store), runId);
  const removed: string[] = [];
  for (const w of worktreeFolders(runDir)) if (await removeWorktree(w)) removed.push(w);
  await fs.promises.rm(runDir, { recursive: true, force: true });
  return removed;
}

/** The worktrees of runs that are done or gone from the store, removed; runs still going (or unreadable) keep theirs. */
export async function pruneWorktrees(at: StoreRef): Promise<RunWorktrees[]> {
  return withStore(at, async (s) => {
    const pruned: RunWorktrees[] = [];
    for (const r of await listWorktrees(s)) {
      if (r.phase !== 'done' && r.phase !== 'deleted') continue;
      await removeRunWorktrees(s, r.runId);
      pruned.push(r);
    }
    return pruned;
  });
}
