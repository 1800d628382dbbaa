/**
 * Before Restore or Undo writes or deletes a file the run recorded: the path is walked from the
 * workspace down, segment by segment, and a symlink among them (the file itself or any folder
 * above it) whose real path is outside the real workspace, or that is broken, is refused with a
 * WorkspaceLinkError; nothing has been written or deleted by then. Links that stay inside the
 * workspace are followed, as the agent's own writes follow them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLinkError } from '../core/errors';
import { isErrno } from '../disk/errno';
import { ledgerPath } from './ledger-path';

/** The absolute path of `rel` in `workspace`, or WorkspaceLinkError (see the file's comment). `action`: "Restoring ..." for the message. */
export function pathStayingInWorkspace(workspace: string, rel: string, action: string): string {
  const root = path.resolve(workspace);
  const realRoot = fs.realpathSync(root);
  const parts = ledgerPath(rel).split('/');
  let cur = root;
  for (let i = 0; i < parts.length; i++) {
    cur = path.join(cur, parts[i]);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(cur);
    } catch (e) {
      if (isErrno(e, 'ENOENT', 'ENOTDIR')) break; // the rest does not exist: it will be created as plain folders
      throw e;
    }
    if (!st.isSymbolicLink()) continue;
    const link = parts.slice(0, i + 1).join('/');
    let real: string;
    try {
      real = fs.realpathSync(cur);
    } catch (e) {
      if (isErrno(e, 'ENOENT', 'ENOTDIR', 'ELOOP')) throw new WorkspaceLinkError(rel, link, undefined, action);
      throw e;
    }
    if (!isInside(realRoot, real)) throw new WorkspaceLinkError(rel, link, real, action);
  }
  return path.join(root, ...parts);
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
