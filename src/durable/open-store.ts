/**
 * Which run store a front end names: a state folder (the default, local files) or a
 * postgres:// URL. A StoreRef is either, or a store already open; `withStore` opens one for the
 * length of a call and closes it after, unless the caller handed in its own.
 */
import { FileRunStore } from './file-run-store';
import type { RunStore } from './run-store';
import { isPgUrl } from './pg/database';
import { PgRunStore, type PgStoreOptions } from './pg/pg-run-store';

export type StoreRef = string | RunStore;

/** A new store for a folder or a postgres:// URL (its database is not contacted until first used). */
export function openStore(spec: string, o: PgStoreOptions = {}): RunStore {
  return isPgUrl(spec) ? new PgRunStore(spec, o) : new FileRunStore(spec);
}

/** Runs `f` with the store `ref` names; a store opened here is closed afterwards. */
export async function withStore<T>(ref: StoreRef, f: (s: RunStore) => Promise<T>): Promise<T> {
  if (typeof ref !== 'string') return f(ref);
  const s = openStore(ref);
  try {
    return await f(s);
  } finally {
    await s.close();
  }
}
