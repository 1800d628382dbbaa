/**
 * Where a ledger entry's file is. A workspace file's key is its workspace-relative path; a file
 * written in a cause's worktree (--pull-requests) is keyed by its absolute path (so a key never
 * names two files, and the workspace-changed error names the worktree's file) and its record
 * says which worktree folder it is in and its path there.
 */
import * as path from 'node:path';
import type { FileRecord, WriteRoot } from '../store/state';
import { ledgerPath } from './ledger-path';

export interface LedgerFile {
  /** The folder the file is written in: the workspace, or the workspace's folder in a cause's worktree. */
  top: string;
  /** The file's path relative to `top`, with forward slashes. */
  rel: string;
  /** The file's absolute path. */
  file: string;
}

/** The key of a file written in `root` (undefined: the workspace) at `relPath` from it. */
export function ledgerKey(relPath: string, root?: WriteRoot): string {
  const rel = ledgerPath(relPath);
  if (!root) return rel;
  return `${root.dir.replace(/\\/g, '/').replace(/\/+$/, '')}/${rel}`;
}

/** Where the ledger's entry `key` (with its record, when there is one) is on disk. */
export function ledgerFile(workspace: string, key: string, rec?: Pick<FileRecord, 'worktree'>): LedgerFile {
  const w = rec?.worktree;
  const top = w ? w.dir : workspace;
  const rel = w ? w.path : key;
  return { top, rel, file: path.join(top, ...rel.split('/')) };
}
