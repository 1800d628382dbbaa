/**
 * A real PostgreSQL server for this test process (tools/pg/local-server.ts: started on first
 * use, stopped when the process exits) and a fresh database per call.
 */
import { sharedLocalPg } from '../../tools/pg/local-server';

/** The URL of a new, empty database on this process's server. */
export async function freshDatabase(): Promise<string> {
  return (await sharedLocalPg()).createDatabase();
}
