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

/**
 * Why reuse cannot be done, or undefined when it can: the lock files are the same, the checkout
 * has node_modules, and none of its packages is a link to the repository's own code (a `file:`
 * dependency, a pnpm, Yarn or npm workspace package): through such a link the worktree's tests
 * would import the checkout's code, not the worktree's, and the fix would not be what they test.
 */
export function reuseRefusal(checkoutInstallDir: string, worktreeInstallDir: string, lockfile: string, checkoutTop = checkoutInstallDir): string | undefined {
  const a = readOr(path.join(checkoutInstallDir, lockfile));
  const b = readOr(path.join(worktreeInstallDir, lockfile));
  if (a === undefined) return `your checkout has no ${lockfile}`;
  if (b === undefined || !a.equals(b)) return `your checkout's ${lockfile} differs from the base commit's`;
  if (!fs.existsSync(path.join(checkoutInstallDir, 'node_modules'))) return 'your checkout has no node_modules installed';
  const own = ownPackageLink(checkoutInstallDir, checkoutTop);
  if (own) return `your checkout's ${own.at} links to the repository's own ${own.to} (the worktree's tests would run your checkout's code)`;
  return undefined;
}

/** The first package in the checkout's node_modules folders that is a link into the repository itself (outside every node_modules), or undefined. */
export function ownPackageLink(checkoutInstallDir: string, checkoutTop: string): { at: string; to: string } | undefined {
  const top = realOr(checkoutTop);
  for (const rel of nodeModulesFolders(checkoutInstallDir)) {
    const nm = path.join(checkoutInstallDir, rel);
    for (const pkg of packageEntries(nm)) {
      let st: fs.Stats;
      try {
        st = fs.lstatSync(pkg);
      } catch {
        continue;
      }
      if (!st.isSymbolicLink()) continue;
      const target = realOr(pkg);
      const inside = path.relative(top, target);
      if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) continue; // outside the repository: a store, a global link
      if (inside.split(path.sep).includes('node_modules')) continue; // pnpm's .pnpm store in node_modules
      return { at: path.relative(checkoutInstallDir, pkg).split(path.sep).join('/'), to: inside.split(path.sep).join('/') };
    }
  }
  return undefined;
}

/** The package paths in a node_modules folder: `name` and `@scope/name`. */
function packageEntries(nm: string): string[] {
  const out: string[] = [];
  for (const name of readdirOr(nm)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const sub of readdirOr(path.join(nm, name))) out.push(path.join(nm, name, sub));
    else out.push(path.join(nm, name));
  }
  return out;
}

function readdirOr(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
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
