/**
 * Drops a search hit inside a hidden folder (the run's state folder), whichever engine found
 * it: each folder on a hit's path is compared by identity with the hidden ones (cached per folder).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hiddenIdentities, identityOf } from '../../workspace/hidden-folders';

/** A test: true when the workspace-relative file `rel` is not in a hidden folder. */
export function hiddenFilter(workspace: string, hidden: readonly string[]): (rel: string) => boolean {
  const ids = hiddenIdentities(hidden);
  if (ids.size === 0) return () => true;
  const dirs = new Map<string, boolean>();
  const dirOk = (dirRel: string): boolean => {
    if (dirRel === '.' || dirRel === '') return true;
    const known = dirs.get(dirRel);
    if (known !== undefined) return known;
    let ok = dirOk(path.posix.dirname(dirRel));
    if (ok) {
      try {
        ok = !ids.has(identityOf(fs.statSync(path.join(workspace, ...dirRel.split('/')))));
      } catch {
        ok = false;
      }
    }
    dirs.set(dirRel, ok);
    return ok;
  };
  return (rel) => dirOk(path.posix.dirname(rel));
}
