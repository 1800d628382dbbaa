/**
 * The walk the search (when ripgrep is not there) and list_files share: the entries below a
 * folder of the workspace, in sorted order, skipping what IgnoreRules skips and the hidden
 * folders (the run's state folder); symlinks are reported but never followed, as ripgrep does.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { hiddenIdentities, identityOf } from './hidden-folders';
import { IgnoreRules } from './ignore-rules';
import { toRel } from './paths';

export interface WalkEntry {
  rel: string;
  kind: 'file' | 'dir' | 'link' | 'other';
  /** 1 for an entry directly in the folder walked. */
  depth: number;
}

export interface WalkOptions {
  hidden?: readonly string[];
  /** Folders deeper than this are reported but not entered. */
  maxDepth?: number;
  /** Called for each entry, in sorted order; return false to stop the walk. */
  onEntry(e: WalkEntry): boolean | void;
  /** Called for each folder skipped by an ignore rule or as a build folder. */
  onSkipped?(rel: string, why: string): void;
}

/** Walks `dirAbs` (inside `workspace`); resolves true when it was walked to the end. */
export async function walkIgnoring(workspace: string, dirAbs: string, o: WalkOptions): Promise<boolean> {
  const ids = hiddenIdentities(o.hidden ?? []);
  const startRel = toRel(workspace, dirAbs);
  const visit = async (abs: string, rel: string, rules: IgnoreRules, depth: number): Promise<boolean> => {
    const entries = await fs.readdir(abs, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childAbs = path.join(abs, e.name);
      const childRel = rel === '.' ? e.name : `${rel}/${e.name}`;
      const isDir = e.isDirectory();
      const why = rules.skips(childRel, isDir);
      if (why !== undefined) {
        if (isDir) o.onSkipped?.(childRel, why);
        continue;
      }
      if (isDir) {
        if (ids.size > 0 && ids.has(identityOf(await fs.lstat(childAbs)))) continue;
        if (o.onEntry({ rel: childRel, kind: 'dir', depth }) === false) return false;
        if (o.maxDepth !== undefined && depth >= o.maxDepth) continue;
        if (!(await visit(childAbs, childRel, rules.enter(workspace, childRel), depth + 1))) return false;
      } else {
        const kind = e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : 'other';
        if (o.onEntry({ rel: childRel, kind, depth }) === false) return false;
      }
    }
    return true;
  };
  return visit(dirAbs, startRel, IgnoreRules.forStart(workspace, startRel), 1);
}
