/**
 * Which tracker a run files into: GitHub (github:OWNER/REPO), the tracker service its URL
 * names, or the embedded tracker of its run store, started on 127.0.0.1 for as long as the run
 * is open. The embedded tracker's issues are one set for the whole store, shared by all its
 * runs (as a real tracker is shared): in the state folder's tracker/ folder, or in the store
 * itself (`RunStore.issues()`: the PostgreSQL store's triage_issues table, shared by every worker
 * and editor on the database).
 * A file-store run created before the store was shared kept its own store in tracker/<runId>,
 * and goes on using it so its issue numbers stay as filed.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BadInputError } from '../core/errors';
import type { RunState } from '../store/state';
import type { RunStore } from '../store/run-store';
import { TrackerClient } from './client';
import { startTracker } from './service';
import type { Tracker } from './tracker';
import { GitHubTracker } from './github/github-tracker';
import { GITHUB_API_DEFAULT } from './github/spec';
import { parseTrackerSpec } from './spec';

/** The embedded tracker's store folder of a state folder. */
export function trackerDir(stateDir: string): string {
  return path.join(stateDir, 'tracker');
}

function legacyTrackerDir(stateDir: string, runId: string): string {
  return path.join(trackerDir(stateDir), runId);
}

export interface OpenTracker {
  client: Tracker;
  close(): Promise<void>;
}

/** What GitHub needs: the token (never saved: GITHUB_TOKEN, or the editor's GitHub sign-in) and the API base (GITHUB_API_URL). */
export interface TrackerAccess {
  githubToken?: string;
  githubApiUrl?: string;
}

/** The tracker of a run: `override` or the run's saved tracker ("github:OWNER/REPO" or a URL), else the embedded one. */
export async function openTracker(store: RunStore, state: RunState, override?: string, access: TrackerAccess = {}): Promise<OpenTracker> {
  const spec = parseTrackerSpec(override ?? state.config.options?.trackerUrl);
  if (spec.kind === 'mcp') throw mcpTrackerHere(spec.server);
  if (spec.kind === 'http') return { client: new TrackerClient(spec.url), close: async () => {} };
  if (spec.kind === 'github') {
    const apiUrl = access.githubApiUrl ?? state.config.options?.githubApiUrl ?? GITHUB_API_DEFAULT;
    return { client: new GitHubTracker({ owner: spec.owner, repo: spec.repo, token: access.githubToken, apiUrl }), close: async () => {} };
  }
  return openEmbedded(store, state.runId);
}

/**
 * A tracker named without a run (`triage mcp`'s triage_file_issue): "github:OWNER/REPO", a
 * tracker service's URL, or (undefined / "embedded") the embedded tracker of the store, shared by its runs.
 */
export async function openNamedTracker(store: RunStore, spec: string | undefined, access: TrackerAccess = {}): Promise<OpenTracker> {
  const s = parseTrackerSpec(spec);
  if (s.kind === 'mcp') throw mcpTrackerHere(s.server);
  if (s.kind === 'http') return { client: new TrackerClient(s.url), close: async () => {} };
  if (s.kind === 'github')
    return {
      client: new GitHubTracker({ owner: s.owner, repo: s.repo, token: access.githubToken, apiUrl: access.githubApiUrl ?? GITHUB_API_DEFAULT }),
      close: async () => {},
    };
  return openEmbedded(store);
}

/** An MCP server's tracker is opened by the run that connects to its server (triage/mcp-tracker.ts), not here. */
function mcpTrackerHere(server: string): BadInputError {
  return new BadInputError(
    `The tracker mcp:${server} is a server of a run's --mcp file; only "triage run" (and a worker running a queued run) can file through it. Use "embedded", github:OWNER/REPO or a tracker URL here.`,
  );
}

/** The embedded tracker of a store: its issues table, or its state folder's tracker/ (or a legacy run's own store). */
async function openEmbedded(store: RunStore, legacyRunId?: string): Promise<OpenTracker> {
  // A store that keeps the issues itself (a database) serves them; a state folder keeps them in its tracker/ folder.
  if (store.issues) {
    const svc = await startTracker({ store: store.issues(), port: 0, host: '127.0.0.1' });
    return { client: new TrackerClient(svc.url), close: () => svc.close() };
  }
  const stateDir = store.stateFolder;
  if (stateDir === undefined) throw new TypeError(`no embedded tracker for a ${store.kind} store`);
  const legacy = legacyRunId === undefined ? undefined : legacyTrackerDir(stateDir, legacyRunId);
  const own =
    legacy !== undefined &&
    (await fs.stat(legacy).then(
      (st) => st.isDirectory(),
      () => false,
    ));
  const svc = await startTracker({ dir: own ? legacy! : trackerDir(stateDir), port: 0, host: '127.0.0.1' });
  return { client: new TrackerClient(svc.url), close: () => svc.close() };
}
