/**
 * Where things live in a state directory (every directory 0700, every file 0600):
 *
 *   <stateDir>/runs/<runId>.json          the run's snapshot (written at creation and at each compaction)
 *   <stateDir>/runs/<runId>.jsonl         its journal: one checksummed record per save since the snapshot
 *   <stateDir>/runs/<runId>.json.lock/    the run's lock (proper-lockfile), with owner.json inside
 *   <stateDir>/runs/.<runId>.json.*.tmp   a checkpoint write in progress (or left by a crash)
 *   <stateDir>/blobs/<sha256>             bytes the run wrote, by content
 *   <stateDir>/events/<runId>.jsonl       the run's event record (run-events-file.ts)
 *   <stateDir>/tracker/                   the embedded tracker's issues (tracker/embedded.ts)
 *   <stateDir>/workspaces/<runId>/        a run's copy of its task's sample
 *
 * The state folder and these subfolders must be real folders of the user running, writable by
 * no one else: state-folder-check.ts refuses any other before the store reads or writes.
 */
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';
import { nonce } from '../../disk/atomic-write';

/** The state folder's subfolders, each made 0700 by whoever writes there first. */
export const STATE_SUBFOLDERS = ['runs', 'blobs', 'events', 'tracker', 'workspaces'] as const;

export function runsDir(stateDir: string): string {
  return path.join(stateDir, 'runs');
}

/** <stateDir>/blobs: the content store's (src/disk/blob-store.ts). */
export { blobsDir } from '../../disk/blob-store';

/** The checkpoint file of a run. */
export function runPath(stateDir: string, runId: string): string {
  return path.join(runsDir(stateDir), `${runId}.json`);
}

/** A fresh temp-file name for the next write of a run's checkpoint (same directory, hidden). */
export function runTempPath(stateDir: string, runId: string): string {
  return path.join(runsDir(stateDir), `.${runId}.json.${nonce()}.tmp`);
}

/** True for names written by runTempPath for `runId`. */
export function isRunTempName(name: string, runId: string): boolean {
  return name.startsWith(`.${runId}.json.`) && name.endsWith('.tmp');
}

/** The run ID of a checkpoint file name, or undefined for locks, temp files and anything else. */
export function runIdOfFile(name: string): string | undefined {
  if (name.startsWith('.') || !name.endsWith('.json')) return undefined;
  const id = name.slice(0, -'.json'.length);
  return isValidRunId(id) ? id : undefined;
}

/** Printable, at most 200 characters, no path separators, not hidden, no "..". */
export function isValidRunId(runId: string): boolean {
  return runId.length > 0 && runId.length <= 200 && !runId.startsWith('.') && !runId.includes('..') && !/[/\\\x00-\x1f\x7f]/.test(runId); // eslint-disable-line no-control-regex -- control characters are what it refuses
}

/** Run IDs become file names: refuse anything that could leave the runs directory. */
export function assertRunId(runId: string): void {
  if (!isValidRunId(runId)) {
    throw new BadInputError(`"${runId}" is not a valid run ID: at most 200 printable characters, no "/" or "\\", not starting with "." and without "..".`);
  }
}
