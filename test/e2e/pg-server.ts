// A real, throwaway PostgreSQL server for scenarios on a shared store: the project's own tool
// (tools/pg/local-server.ts: Debian's PostgreSQL, installed by scripts/e2e-setup.sh; initdb into a
// temp folder, a private unix socket with trust authentication, so its URLs need no password),
// loaded from `tsc -p .`'s output (out/tools/pg/), since the e2e files compile on their own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './paths';

/** The part of tools/pg/local-server.ts's LocalPg the scenarios use. */
export interface LocalPg {
  /** The URL of a new, empty database in this cluster (postgres://triage@/NAME?host=SOCKET_DIR&port=N). */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): void;
}

const COMPILED = path.join(REPO_ROOT, 'out', 'tools', 'pg', 'local-server.js');

/** Starts a server; the caller stops it. */
export async function startPg(): Promise<LocalPg> {
  if (!fs.existsSync(COMPILED)) throw new Error(`${COMPILED} is missing; run "npx tsc -p ." (scripts/e2e.sh does)`);
  const mod = (await import(COMPILED)) as { startLocalPg(): Promise<LocalPg> };
  return mod.startLocalPg();
}
