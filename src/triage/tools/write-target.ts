/**
 * Where the write tools may write: inside the workspace (workspace-paths.ts), never inside .git (a
 * hook there would run code outside the agent's reach) or node_modules, and never over a folder.
 */
import * as fs from 'node:fs';
import { resolveInWorkspace, toRel, ToolInputError } from '../workspace-paths';
import { SKIPPED_DIRS } from './walk';

export interface WriteTarget {
  abs: string;
  rel: string;
}

export function writeTarget(workspace: string, p: unknown): WriteTarget {
  const abs = resolveInWorkspace(workspace, p);
  const rel = toRel(workspace, abs);
  if (rel === '.') throw new ToolInputError('path names the workspace itself; give a file path');
  const top = rel.split('/')[0];
  if (SKIPPED_DIRS.has(top) || rel.split('/').some((s) => s === '.git')) throw new ToolInputError(`refusing to write "${rel}": files inside ${top === 'node_modules' ? 'node_modules' : '.git'} are not the agent's to change`);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) throw new ToolInputError(`"${rel}" is a folder; give a file path`);
  return { abs, rel };
}
