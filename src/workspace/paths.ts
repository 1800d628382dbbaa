/**
 * Safe path resolution for the triage tools: every path a model writes is resolved inside
 * the workspace, or refused with a ToolInputError the tool hands back as an error result.
 *
 * Refused: a non-string or empty path, a NUL byte, an absolute path (POSIX, Windows drive or
 * UNC), `..` that climbs out of the workspace, and a symlink anywhere along the path
 * (including the final component, if it exists) whose real path is outside the real
 * workspace root, or that is broken (writing through it could create a file anywhere).
 * Symlinks that stay inside the workspace are fine. Also refused: a path in a hidden folder
 * (hidden-folders.ts: the run's state folder), whatever the spelling or symlink that leads there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hiddenFolderOf } from './hidden-folders';
import { isInside } from './real-path';

/** A tool argument the tool cannot use; its message is shown to the model as the tool's error result. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/**
 * Resolves `p` (a workspace-relative path from the model) to an absolute path inside `workspace`;
 * `hidden`: folders the tools treat as outside the workspace (the run's state folder).
 */
export function resolveInWorkspace(workspace: string, p: unknown, hidden: readonly string[] = []): string {
  if (typeof p !== 'string') throw new ToolInputError(`path should be a string, found ${kindOf(p)}`);
  if (p.trim() === '') throw new ToolInputError('path is empty; give a path relative to the workspace, e.g. "src/index.js"');
  if (p.includes('\0')) throw new ToolInputError(`path ${JSON.stringify(p)} contains a NUL byte`);
  if (path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[A-Za-z]:/.test(p)) {
    throw new ToolInputError(`path "${p}" is absolute; give a path relative to the workspace`);
  }
  const root = path.resolve(workspace);
  const abs = path.resolve(root, ...p.split(/[\\/]+/));
  if (!isInside(root, abs)) throw new ToolInputError(`path "${p}" is outside the workspace`);

  const realRoot = realRootOf(root);
  const parts = path
    .relative(root, abs)
    .split(path.sep)
    .filter((s) => s !== '');
  let cur = root;
  for (const part of parts) {
    cur = path.join(cur, part);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(cur);
    } catch (e) {
      if (isErrno(e, 'ENOENT', 'ENOTDIR')) break; // the rest does not exist yet: nothing to follow
      throw new ToolInputError(`path "${p}" cannot be checked: ${(e as Error).message}`);
    }
    if (!st.isSymbolicLink()) continue;
    let real: string;
    try {
      real = fs.realpathSync(cur);
    } catch {
      throw new ToolInputError(`path "${p}" goes through the broken symlink "${toRel(root, cur)}"; it is refused`);
    }
    if (!isInside(realRoot, real)) {
      throw new ToolInputError(`path "${p}" is outside the workspace: "${toRel(root, cur)}" is a symlink that leads out of it`);
    }
  }
  if (hiddenFolderOf(root, abs, hidden) !== undefined) {
    throw new ToolInputError(`path "${p}" is in the run's state folder, which is not part of the workspace; the tools neither read, list nor change it`);
  }
  return abs;
}

/** The workspace-relative form of `abs`, with forward slashes ("." for the root itself). */
export function toRel(workspace: string, abs: string): string {
  const rel = path.relative(path.resolve(workspace), abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

function realRootOf(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch (e) {
    throw new ToolInputError(`the workspace ${root} cannot be opened (${(e as Error).message})`);
  }
}

function isErrno(e: unknown, ...codes: string[]): boolean {
  return typeof e === 'object' && e !== null && codes.includes((e as NodeJS.ErrnoException).code ?? '');
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `${/^[aeiou]/.test(typeof v) ? 'an' : 'a'} ${typeof v}`;
}
