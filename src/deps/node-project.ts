/**
 * Which package manager a JavaScript repository installs with, the way the repository says it:
 * the `packageManager` field of its package.json (what corepack runs, "pnpm@9.15.9"), else its
 * lock file. Found from the workspace's folder up to the repository's top, the nearest folder
 * with a lock file (a monorepo's root holds the install of every package). A repository that
 * commits no lock file (many libraries do not) but declares dependencies installs with npm from
 * its package.json, the nearest one from the workspace's folder up. Pure: reads files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';

export const NODE_MANAGERS = ['npm', 'pnpm', 'yarn-classic', 'yarn-berry'] as const;
export type NodeManager = (typeof NODE_MANAGERS)[number];

export interface NodeProject {
  manager: NodeManager;
  /** The folder the install runs in (the lock file's), relative to the repository's top ("" at the top). */
  installDir: string;
  /** The lock file, relative to the repository's top. */
  lockfile: string;
  /** The version `packageManager` pins ("9.15.9"), when it does: run through corepack. */
  pinned?: string;
  /** A Yarn release the repository carries (.yarnrc.yml's yarnPath), relative to installDir: run with node. */
  yarnPath?: string;
  /** Yarn berry's linker as configured ("pnp" when unset in Yarn 2+); the install asks for node-modules. */
  yarnLinker?: string;
  /** A Yarn berry lock file's format (its `__metadata: version:`; Yarn 3 writes 6, Yarn 4 8 and later 10), when it has one. */
  yarnLockVersion?: number;
  /** Why: "packageManager: pnpm@9.15.9", "package-lock.json", "package.json (no lock file)". */
  because: string;
  /** No lock file in the repository: npm resolves package.json's ranges (`lockfile` is then that package.json). */
  lockless?: true;
}

const LOCKFILES: ReadonlyArray<[string, NodeManager]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn-classic'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const PackageManagerField = z.string().regex(/^(npm|pnpm|yarn)@(\d+)(\.[0-9A-Za-z.+-]+)?$/);

/**
 * The JavaScript project around `workspaceRel` in the repository at `repoTop`: the nearest
 * package.json with a lock file or a `packageManager`, else the nearest that declares
 * dependencies (lockless), else undefined.
 */
export function detectNodeProject(repoTop: string, workspaceRel: string): NodeProject | undefined {
  let lockless: NodeProject | undefined;
  for (let rel = normal(workspaceRel); ; rel = parent(rel)) {
    const dir = path.join(repoTop, rel);
    const found = projectIn(dir, rel);
    if (found) return found;
    lockless ??= locklessIn(dir, rel);
    if (rel === '') return lockless;
  }
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

function locklessIn(dir: string, rel: string): NodeProject | undefined {
  const pkg = readJson(path.join(dir, 'package.json'));
  if (!pkg) return undefined;
  const declares = DEPENDENCY_FIELDS.some((f) => {
    const deps = pkg[f];
    return typeof deps === 'object' && deps !== null && Object.keys(deps).length > 0;
  });
  if (!declares) return undefined;
  return { manager: 'npm', installDir: rel, lockfile: path.posix.join(rel, 'package.json'), because: 'package.json (no lock file)', lockless: true };
}

function projectIn(dir: string, rel: string): NodeProject | undefined {
  const pkg = readJson(path.join(dir, 'package.json'));
  if (!pkg) return undefined;
  const lock = LOCKFILES.find(([f]) => fs.existsSync(path.join(dir, f)));
  const field = typeof pkg.packageManager === 'string' ? pkg.packageManager.trim() : undefined;
  const pm = field !== undefined && PackageManagerField.safeParse(field.split('+')[0]).success ? field.split('+')[0] : undefined;
  if (!lock && !pm) return undefined;
  const yarnrc = readText(path.join(dir, '.yarnrc.yml'));
  const yarnPath = yarnrc ? /^yarnPath:\s*["']?([^"'\n]+?)["']?\s*$/m.exec(yarnrc)?.[1] : undefined;
  const linker = yarnrc ? /^nodeLinker:\s*["']?([\w-]+)["']?\s*$/m.exec(yarnrc)?.[1] : undefined;
  let manager: NodeManager;
  let pinned: string | undefined;
  let because: string;
  if (pm) {
    const [name, version] = pm.split('@');
    pinned = version;
    manager = name === 'yarn' ? (Number(version.split('.')[0]) >= 2 ? 'yarn-berry' : 'yarn-classic') : (name as NodeManager);
    because = `packageManager: ${pm}`;
  } else {
    manager =
      lock![1] === 'yarn-classic' && (yarnrc !== undefined || fs.existsSync(path.join(dir, '.yarn', 'releases')) || isBerryLock(path.join(dir, lock![0])))
        ? 'yarn-berry'
        : lock![1];
    because = lock![0];
  }
  const lockfile = lock?.[0] ?? expectedLock(manager);
  const out: NodeProject = { manager, installDir: rel, lockfile: path.posix.join(rel, lockfile), because };
  if (pinned) out.pinned = pinned;
  if (manager === 'yarn-berry' && yarnPath) out.yarnPath = yarnPath;
  if (manager === 'yarn-berry') out.yarnLinker = linker ?? 'pnp';
  const lockVersion = manager === 'yarn-berry' && lock ? berryLockVersion(path.join(dir, lock[0])) : undefined;
  if (lockVersion !== undefined) out.yarnLockVersion = lockVersion;
  return out;
}

/** Yarn 2+ writes its lock file as YAML with a `__metadata:` block (Yarn 1's starts with "# yarn lockfile v1"). */
function isBerryLock(file: string): boolean {
  return /^__metadata:\s*$/m.test((readText(file) ?? '').slice(0, 4096));
}

function berryLockVersion(file: string): number | undefined {
  const m = /^__metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+version:\s*["']?(\d+)/m.exec((readText(file) ?? '').slice(0, 4096));
  return m ? Number(m[1]) : undefined;
}

function expectedLock(m: NodeManager): string {
  return m === 'pnpm' ? 'pnpm-lock.yaml' : m === 'npm' ? 'package-lock.json' : 'yarn.lock';
}

function normal(rel: string): string {
  return rel.replace(/\\/g, '/').replace(/^\.?\/+|\/+$/g, '');
}

function parent(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
