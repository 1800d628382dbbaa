/**
 * Which tracker a run files into: the one its URL names, or the embedded tracker of its state
 * folder, started on 127.0.0.1 for as long as the run is open. The embedded tracker's store is
 * one for the whole state folder, shared by all its runs (as a real tracker is shared); a run
 * created before it was shared kept its own store in tracker/<runId>, and goes on using it so
 * its issue numbers stay as filed.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RunState } from '../../durable/state';
import { TrackerClient } from './client';
import { startTracker } from './service';

/** The embedded tracker's store folder of a state folder. */
export function trackerDir(stateDir: string): string {
  return path.join(stateDir, 'tracker');
}

function legacyTrackerDir(stateDir: string, runId: string): string {
  return path.join(trackerDir(stateDir), runId);
}

export interface OpenTracker {
  client: TrackerClient;
  close(): Promise<void>;
}

/** The tracker of a run: `override` or the run's saved tracker URL, else the embedded one. */
export async function openTracker(stateDir: string, state: RunState, override?: string): Promise<OpenTracker> {
  const url = override ?? state.config.options?.trackerUrl;
  if (url) return { client: new TrackerClient(url), close: async () => {} };
  const legacy = legacyTrackerDir(stateDir, state.runId);
  const own = await fs.stat(legacy).then((st) => st.isDirectory(), () => false);
  const svc = await startTracker({ dir: own ? legacy : trackerDir(stateDir), port: 0, host: '127.0.0.1' });
  return { client: new TrackerClient(svc.url), close: () => svc.close() };
}
