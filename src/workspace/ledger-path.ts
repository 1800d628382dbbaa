/** The ledger's key for a workspace file: its workspace-relative path with forward slashes. */
import * as path from 'node:path';
import { BadInputError } from '../core/errors';

/** "src\\a.js", "./src/a.js" -> "src/a.js"; refuses absolute paths and paths that leave the workspace. */
export function ledgerPath(relPath: string): string {
  const p = path.posix.normalize(relPath.replace(/\\/g, '/'));
  if (p === '.' || p === '..' || p.startsWith('../') || path.posix.isAbsolute(p) || /^[A-Za-z]:/.test(p)) {
    throw new BadInputError(`${JSON.stringify(relPath)} is not a path inside the workspace; give it relative to the workspace folder.`);
  }
  return p;
}
