/**
 * The file backend of the run store: a state folder (state-layout.ts) with one snapshot and one
 * journal per run, a lock per run, and the content store in blobs/. It is checkpoint.ts
 * behind the RunStore interface, unchanged in behaviour. Before its first read or write, the
 * state folder is checked (state-folder-check.ts): a link, a foreign owner or a mode others can
 * write is refused.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRun, deleteRun, listRuns, openRun, readRun } from './checkpoint';
import type { RunHandle } from '../run-handle';
import type { OpenedRun, RunListing, RunStore, StoreOptions } from '../run-store';
import type { RunState } from '../state';
import { BlobStore } from '../../disk/blob-store';
import { isRunLocked } from '../../disk/lock';
import { runPath } from './state-layout';
import type { RunEventStore } from '../run-event';
import { FileRunEventStore } from './run-events-file';
import { checkStateFolder } from './state-folder-check';

export class FileRunStore implements RunStore {
  readonly kind = 'files';
  readonly stateFolder: string;

  /** The check of the state folder, once it has passed (a refusal is checked again next time). */
  private passed: Promise<void> | undefined;

  constructor(stateFolder: string) {
    this.stateFolder = path.resolve(stateFolder);
  }

  /** Resolves once the state folder is known safe to use; UnsafeStateFolderError otherwise. */
  checked(): Promise<void> {
    if (this.passed) return this.passed;
    const check = checkStateFolder(this.stateFolder);
    this.passed = check;
    check.catch(() => {
      if (this.passed === check) this.passed = undefined;
    });
    return check;
  }

  get where(): string {
    return this.stateFolder;
  }

  get workspacesDir(): string {
    return path.join(this.stateFolder, 'workspaces');
  }

  async createRun(state: RunState, opts?: StoreOptions): Promise<RunHandle> {
    await this.checked();
    return createRun(this.stateFolder, state, opts);
  }

  async openRun(runId: string, opts?: StoreOptions): Promise<OpenedRun> {
    await this.checked();
    return openRun(this.stateFolder, runId, opts);
  }

  async readRun(runId: string): Promise<RunState> {
    await this.checked();
    return readRun(this.stateFolder, runId);
  }

  async hasRun(runId: string): Promise<boolean> {
    await this.checked();
    return fs.existsSync(runPath(this.stateFolder, runId));
  }

  async listRuns(): Promise<RunListing[]> {
    await this.checked();
    return listRuns(this.stateFolder);
  }

  async deleteRun(runId: string): Promise<void> {
    await this.checked();
    return deleteRun(this.stateFolder, runId);
  }

  /** No state-folder check: a probe of the lock directory beside the run's checkpoint, as before any read. */
  runLocked(runId: string): Promise<boolean> {
    return isRunLocked(runPath(this.stateFolder, runId));
  }

  async getBlob(sha256: string): Promise<Buffer | undefined> {
    await this.checked();
    return new BlobStore(this.stateFolder, false).get(sha256);
  }

  events(o: { sync?: boolean } = {}): RunEventStore {
    return new FileRunEventStore(this.stateFolder, { sync: o.sync ?? true, ready: () => this.checked() });
  }

  async close(): Promise<void> {}
}
