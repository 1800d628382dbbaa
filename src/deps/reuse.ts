/**
 * `--deps reuse`: the user's checkout's installed node_modules linked into a cause's worktree,
 * instead of installing there. Only when the worktree's lock file is byte for byte the checkout's
 * (else the installed packages are not the ones the base commit locks, and the worktree is
 * installed instead). Every node_modules folder of the install's tree is linked (a workspace
 * monorepo has one per package). Nothing is written in the checkout by this; what the tests
 * themselves write into node_modules (a runner's cache, e.g. Vite's node_modules/.vite) does land
 * there: docs/worktree-dependencies.md says when reuse is wrong.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const SKIP = new Set(['.git', 'node_modules', '.yarn', '.pnpm-store']);

/** The node_modules folders of `dir` (relative paths), not looking inside node_modules, at most `depth` folders down. */
export function nodeModulesFolders(dir: string, depth = 4): string[] {
  const out: string[] = [];
  const walk = (rel: string, d: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === 'node_modules' && (e.isDirectory() || e.isSymbolicLink())) out.push(r);
      else if (e.isDirectory() && !SKIP.has(e.name) && d > 0) walk(r, d - 1);
    }
  };
  walk('', depth);
  return out.sort();
}

/** Why reuse cannot be done, or undefined when it can (the lock files are the same and the checkout has node_modules). */
export function reuseRefusal(checkoutInstallDir: string, worktreeInstallDir: string, lockfile: string): string | undefined {
  const a = readOr(path.join(checkoutInstallDir, lockfile));
  const b = readOr(path.join(worktreeInstallDir, lockfile));
  if (a === undefined) return `your checkout has no ${lockfile}`;
  if (b === undefined || !a.equals(b)) return `your checkout's ${lockfile} differs from the base commit's`;
  if (!fs.existsSync(path.join(checkoutInstallDir, 'node_modules'))) return 'your checkout has no node_modules installed';
  return undefined;
}

/** Links each of the checkout's node_modules folders into the worktree at the same place; the linked paths. */
export function linkNodeModules(checkoutInstallDir: string, worktreeInstallDir: string): string[] {
  const linked: string[] = [];
  for (const rel of nodeModulesFolders(checkoutInstallDir)) {
    const target = path.join(checkoutInstallDir, rel);
    const at = path.join(worktreeInstallDir, rel);
    if (!fs.existsSync(path.dirname(at))) continue; // a package the base commit does not have
    try {
      const st = fs.lstatSync(at);
      if (st.isSymbolicLink() && fs.readlinkSync(at) === target) {
        linked.push(rel);
        continue;
      }
      fs.rmSync(at, { recursive: true, force: true });
    } catch {
      // not there yet
    }
    fs.symlinkSync(target, at, 'dir');
    linked.push(rel);
  }
  return linked;
}

function readOr(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
