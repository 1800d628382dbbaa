/**
 * The one factory of run stores: a state folder (the default, local files) or a postgres:// URL
 * opens the backend it names; nothing above src/store names a backend. A StoreRef is either, or
 * a store already open; `withStore` opens one for the length of a call and closes it after,
 * unless the caller handed in its own.
 */
import { FileRunStore } from './files/file-run-store';
import type { RunStore } from './run-store';
import { isPgUrl } from './store-url';
import type { PgStoreOptions } from './pg/pg-run-store';

export type StoreRef = string | RunStore;

/** A new store for a folder or a postgres:// URL (its database is not contacted until first used). */
export function openStore(spec: string, o: PgStoreOptions = {}): RunStore {
  if (!isPgUrl(spec)) return openStateFolder(spec);
  // The PostgreSQL client is loaded for a postgres:// URL only: a CLI or an editor window on local
  // files does not pay for its start-up (the bundle keeps it lazy: see bench "extension").
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PgRunStore } = require('./pg/pg-run-store') as typeof import('./pg/pg-run-store');
  return new PgRunStore(spec, o);
}

/** The store of a state folder, whatever its name looks like (for options that name a folder, never a URL); it probes a run's lock (`runLocked`). */
export function openStateFolder(dir: string): RunStore & Required<Pick<RunStore, 'runLocked'>> {
  return new FileRunStore(dir);
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
