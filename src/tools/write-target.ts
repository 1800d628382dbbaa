/**
 * Where the write tools may write: inside the workspace (workspace/paths.ts, which also keeps
 * out the hidden folders), never a protected path (protected-paths.ts: .git, node_modules, the
 * files that configure tools or the editor), whether named directly or reached through a
 * symlink, and never over a folder or anything else that is not a regular file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace/paths';
import { realPathOf } from '../workspace/real-path';
import { protectedBy, protectedReason } from './protected-paths';
import { assertRegular } from './regular-file';

export interface WriteTarget {
  abs: string;
  rel: string;
}

/** Resolves and checks a path a write tool was given; `hidden`: the folders the tools treat as outside the workspace. */
export function writeTarget(workspace: string, p: unknown, hidden: readonly string[] = []): WriteTarget {
  const abs = resolveInWorkspace(workspace, p, hidden);
  const rel = toRel(workspace, abs);
  if (rel === '.') throw new ToolInputError('path names the workspace itself; give a file path');
  refuseProtected(workspace, abs, rel);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) throw new ToolInputError(`"${rel}" is a folder; give a file path`);
  if (st) assertRegular(st, rel);
  return { abs, rel };
}

/** Refuses a protected path, as named or as the file system will reach it (through a symlink inside the workspace). */
function refuseProtected(workspace: string, abs: string, rel: string): void {
  const named = protectedBy(rel);
  if (named) throw new ToolInputError(`refusing to write "${rel}": ${protectedReason(named)}`);
  const realRel = toRel(realPathOf(workspace), realPathOf(abs));
  const reached = realRel.startsWith('../') || path.isAbsolute(realRel) ? undefined : protectedBy(realRel);
  if (reached) throw new ToolInputError(`refusing to write "${rel}": it leads through a symlink to "${realRel}"; ${protectedReason(reached)}`);
}
