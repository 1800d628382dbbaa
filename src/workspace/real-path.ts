/** Comparing paths as the file system sees them: real paths, and whether one is below another. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** `p` is `root` or below it (both absolute, in the same form). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * The real path of `abs`: symlinks resolved (and, where the system gives them, the names as
 * stored: long names and their case on Windows) in its longest existing part, the rest as given.
 */
export function realPathOf(abs: string): string {
  const rest: string[] = [];
  let cur = path.resolve(abs);
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(cur), ...rest.reverse());
    } catch (e) {
      const up = path.dirname(cur);
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || up === cur) throw e;
      rest.push(path.basename(cur));
      cur = up;
    }
  }
}
