/**
 * The file backend of the run store: a state folder (paths.ts) with one snapshot and one
 * journal per run, a lock per run, and the content store in blobs/. It is checkpoint.ts
 * behind the RunStore interface, unchanged in behaviour.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRun, deleteRun, listRuns, openRun, readRun, type RunListing, type StoreOptions } from './checkpoint';
import type { RunHandle } from './handle';
import type { OpenedRun, RunStore } from './run-store';
import type { RunState } from './state';
import { BlobStore } from './blobs';
import { runPath } from './state-layout';
import type { RunEventStore } from './events/run-event';
import { FileRunEventStore } from './events/run-events-file';

export class FileRunStore implements RunStore {
  readonly kind = 'files';
  readonly stateDir: string;

  constructor(stateDir: string) {
    this.stateDir = path.resolve(stateDir);
  }

  get where(): string {
    return this.stateDir;
  }

  get workspacesDir(): string {
    return path.join(this.stateDir, 'workspaces');
  }

  createRun(state: RunState, opts?: StoreOptions): Promise<RunHandle> {
    return createRun(this.stateDir, state, opts);
  }

  openRun(runId: string, opts?: StoreOptions): Promise<OpenedRun> {
    return openRun(this.stateDir, runId, opts);
  }

  readRun(runId: string): Promise<RunState> {
    return readRun(this.stateDir, runId);
  }

  async hasRun(runId: string): Promise<boolean> {
    return fs.existsSync(runPath(this.stateDir, runId));
  }

  listRuns(): Promise<RunListing[]> {
    return listRuns(this.stateDir);
  }

  deleteRun(runId: string): Promise<void> {
    return deleteRun(this.stateDir, runId);
  }

  getBlob(sha256: string): Promise<Buffer | undefined> {
    return new BlobStore(this.stateDir, false).get(sha256);
  }

  events(o: { sync?: boolean } = {}): RunEventStore {
    return new FileRunEventStore(this.stateDir, { sync: o.sync ?? true });
  }

  async close(): Promise<void> {}
}
