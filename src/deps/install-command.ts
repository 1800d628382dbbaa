/**
 * The install a JavaScript project's worktree gets, as the repository's own package manager runs
 * it from its lock file, never changing the lock file: `npm ci`, `pnpm install --frozen-lockfile`,
 * `yarn install --frozen-lockfile` (classic) or `yarn install --immutable` (berry, with the
 * node-modules linker asked for by environment, so the repository's files stay as they are).
 * The package manager's cache or store first (`--prefer-offline`; `--offline` instead with network
 * `offline`), lifecycle scripts off unless allowed. A pinned `packageManager` runs through
 * corepack; a Yarn release the repository carries (yarnPath) runs with node. A repository with
 * no lock file gets `npm install` from package.json, writing no lock file and changing nothing. Pure.
 */
import * as path from 'node:path';
import type { NodeProject } from './node-project';
import type { DepsOptions } from './options';

export interface InstallCommand {
  command: string;
  args: string[];
  /** Added to the user's environment. */
  env: Record<string, string>;
  /** Absolute folder it runs in. */
  cwd: string;
  /** How it reads in messages: "pnpm install --frozen-lockfile ...". */
  display: string;
  /** The program that must be installed, for the error when it is not: "corepack", "npm". */
  needs: string;
}

export interface InstallTools {
  /** corepack's path (DURABLE_TRIAGE_COREPACK, else corepack on the PATH), or undefined. */
  corepack?: string;
  /** pnpm or yarn on the PATH, used when the project pins no version and corepack is missing. */
  onPath(cmd: string): string | undefined;
  /** The node running us (for a repository's own yarnPath release). */
  node: string;
}

/**
 * The Yarn major corepack is asked for when a Yarn berry repository pins no version and carries no
 * release (no packageManager, no yarnPath) and no yarn is on the PATH: a bare `corepack yarn` is
 * corepack's default, Yarn 1, which takes --immutable for nothing and rewrites the berry lock file
 * in its own format. The lock file's format says which major wrote it (Yarn 3: 6, Yarn 4: 8 or
 * later); a lock file written by an older release of that major than corepack's newest may still be
 * refused by --immutable, a lock file error the user fixes by pinning packageManager.
 */
function berryMajor(lockVersion: number | undefined): string {
  if (lockVersion === undefined || lockVersion >= 8) return '4';
  return lockVersion >= 6 ? '3' : '2';
}

export function installCommand(p: NodeProject, worktreeTop: string, o: DepsOptions, t: InstallTools): InstallCommand {
  const cwd = path.join(worktreeTop, p.installDir);
  const offline = o.network === 'offline';
  // Corepack asks nothing and writes nothing: without COREPACK_ENABLE_AUTO_PIN=0 it adds a packageManager field to package.json.
  const env: Record<string, string> = { COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_AUTO_PIN: '0', npm_config_update_notifier: 'false' };
  if (offline) env.COREPACK_ENABLE_NETWORK = '0';
  let bin: string;
  let args: string[];
  switch (p.manager) {
    case 'npm':
      bin = 'npm';
      args = [
        ...(p.lockless ? ['install', '--no-package-lock', '--no-save'] : ['ci']),
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...(offline ? ['--offline'] : []),
        ...(o.scripts ? [] : ['--ignore-scripts']),
      ];
      break;
    case 'pnpm':
      bin = 'pnpm';
      args = [
        'install',
        '--frozen-lockfile',
        offline ? '--offline' : '--prefer-offline',
        ...(o.scripts ? [] : ['--ignore-scripts']),
        // A node_modules made otherwise is removed without asking (there is no one to answer in a worktree).
        '--config.confirm-modules-purge=false',
        '--reporter=append-only',
      ];
      break;
    case 'yarn-classic':
      bin = 'yarn';
      args = [
        'install',
        '--frozen-lockfile',
        '--non-interactive',
        // Yarn 1 takes one or the other: with both, --prefer-offline wins and it goes to the network.
        offline ? '--offline' : '--prefer-offline',
        ...(o.scripts ? [] : ['--ignore-scripts']),
      ];
      break;
    case 'yarn-berry':
      bin = 'yarn';
      args = ['install', '--immutable', ...(o.scripts ? [] : ['--mode=skip-build'])];
      env.YARN_ENABLE_TELEMETRY = '0';
      env.YARN_ENABLE_PROGRESS_BARS = '0';
      env.YARN_ENABLE_INLINE_BUILDS = '0';
      if (p.yarnLinker !== 'node-modules') env.YARN_NODE_LINKER = 'node-modules';
      if (offline) env.YARN_ENABLE_NETWORK = '0';
      break;
  }
  const display = `${bin} ${args.join(' ')}`;
  if (p.yarnPath) return { command: t.node, args: [path.join(cwd, p.yarnPath), ...args], env, cwd, display, needs: 'node' };
  if (p.pinned || (bin !== 'npm' && !t.onPath(bin))) {
    const pinned = p.pinned ? `${bin}@${p.pinned}` : p.manager === 'yarn-berry' ? `yarn@${berryMajor(p.yarnLockVersion)}` : bin;
    // Pinned: corepack is what runs that exact version. Unpinned: the package manager is what is missing (corepack is one way to get it).
    const needs = p.pinned ? 'corepack' : bin;
    return { command: t.corepack ?? 'corepack', args: [pinned, ...args], env, cwd, display: `corepack ${pinned} ${args.join(' ')}`, needs };
  }
  return { command: bin, args, env, cwd, display, needs: bin };
}
