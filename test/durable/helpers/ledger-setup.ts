/** A run with a workspace and a file store, for the ledger's Restore and Undo tests. */
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
  /** Writes `content` at `rel` and records it as the run's write; `before`: the file's earlier version (a SHA-256 or "absent"). */
  write(rel: string, content: string, before?: string): Promise<void>;
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
    async write(rel, content, before) {
      const buf = Buffer.from(content);
      const file = path.join(ws, rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, buf);
      await recordWrite(handle, edit, rel, buf, 'call_1');
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
