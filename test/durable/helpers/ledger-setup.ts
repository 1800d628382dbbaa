/** A run with a workspace and a file store, for the ledger's tests (recording, checking, Restore and Undo). */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { createRun } from '../../../src/store/files/checkpoint';
import { recordWrite } from '../../../src/workspace/ledger';
import { StateEdit } from '../../../src/store/state-edit';
import type { RunHandle } from '../../../src/store/run-handle';
import type { RunState } from '../../../src/store/state';
import { sampleState } from './fixtures';
import { tempDir } from '../../support/temp-dir';

export interface LedgerSetup {
  /** The temp folder holding the workspace and the state (a place outside the workspace for links to point at). */
  root: string;
  ws: string;
  handle: RunHandle;
  state: RunState;
  /** The edit the writes are recorded in (a test saves it to make them durable). */
  edit: StateEdit;
  /**
   * Writes `content` at `rel` and records it as the run's write by call `callId` (default
   * call_1); `before`: the file's earlier version (a SHA-256 or "absent").
   */
  write(rel: string, content: string | Buffer, before?: string, callId?: string): Promise<void>;
}

export async function ledgerSetup(t: TestContext): Promise<LedgerSetup> {
  const root = tempDir(t, 'ledger-test-');
  const ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  const state = sampleState(ws);
  const handle = await createRun(path.join(root, 'state'), state);
  t.after(() => handle.close());
  const edit = new StateEdit(state);
  return {
    root,
    ws,
    handle,
    state,
    edit,
    async write(rel, content, before, callId = 'call_1') {
      const buf = Buffer.from(content);
      const file = path.join(ws, rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, buf);
      await recordWrite(handle, edit, rel, buf, callId);
      if (before !== undefined) state.files![rel] = { ...state.files![rel], before };
    },
  };
}

/** `handle`, except that getBlob hands back `bytes` for every hash without checking them (as a store that does not verify would). */
export function handleServing(handle: RunHandle, bytes: Buffer): RunHandle {
  return new Proxy(handle, {
    get(target, key) {
      if (key === 'getBlob') return async () => bytes;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
