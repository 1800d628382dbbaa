/**
 * `--state DIR` or `--store URL|DIR`: the run store a command works on. A postgres:// URL names
 * the PostgreSQL store (the password from the URL or PGPASSWORD; TLS options as libpq's URL
 * parameters, e.g. ?sslmode=verify-full&sslrootcert=ca.pem); anything else a state folder.
 */
import * as path from 'node:path';
import { BadInputError } from '../core/errors';
import { queueOf, type QueueStore, type RunStore } from '../store/run-store';
import { openStore } from '../store/open-store';
import { isPgUrl } from '../store/store-url';
import type { FlagSpec, FlagValues } from './flags';

export const STORE_FLAGS: FlagSpec = { state: { type: 'string' }, store: { type: 'string' }, workspaces: { type: 'string' } };

/** The store named by --state or --store (exactly one); `usage` is what the command needs, for the error. */
export function storeFromFlags(v: FlagValues, usage: string): RunStore {
  const state = v.state as string | undefined;
  const store = v.store as string | undefined;
  if (state !== undefined && store !== undefined) throw new BadInputError(`Give --state DIR or --store URL, not both (${usage}).`);
  const spec = store ?? state;
  if (spec === undefined || spec === '') throw new BadInputError(`${usage} needs --state DIR or --store URL (a postgres:// URL or a state folder).`);
  const ws = v.workspaces as string | undefined;
  return openStore(isPgUrl(spec) ? spec : path.resolve(spec), ws ? { workspacesDir: path.resolve(ws) } : {});
}

/** The shared store a fleet command needs (worker, enqueue, answer): one with a queue (PostgreSQL). */
export function queueStoreFromFlags(v: FlagValues, usage: string): QueueStore {
  const s = queueOf(storeFromFlags(v, usage));
  if (!s) throw new BadInputError(`${usage} works on a shared PostgreSQL store: give --store postgres://...`);
  return s;
}

/** Runs a command's work with its store, closed afterwards. */
export async function usingStore<T>(store: RunStore, f: (s: RunStore) => Promise<T>): Promise<T> {
  try {
    return await f(store);
  } finally {
    await store.close();
  }
}
