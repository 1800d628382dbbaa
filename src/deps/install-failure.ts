/**
 * What an install's failure was, read from its output, as the typed stop the user meets
 * (errors.ts): a lock file out of step, a cache that is cold with no network, a package
 * manager that is missing, or any other failure with the output's last lines. Pure.
 */
import { CacheColdError, InstallFailedError, LockfileOutOfStepError, ToolMissingError, type DependencyError } from './errors';
import type { InstallCommand } from './install-command';
import type { NodeProject } from './node-project';
import { stripAnsi } from '../runners/normalize';

const OUT_OF_STEP: readonly RegExp[] = [
  /`npm ci` can only install packages when your package\.json and package-lock\.json (or npm-shrinkwrap\.json )?are in sync/i,
  /npm ci.*(?:missing|invalid):.*from lock file/i,
  /ERR_PNPM_OUTDATED_LOCKFILE/,
  /ERR_PNPM_LOCKFILE_CONFIG_MISMATCH/,
  /Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`/i,
  /YN0028\b/,
  /The lockfile would have been (?:modified|created) by this install, which is explicitly forbidden/i,
];

const NO_NETWORK: readonly RegExp[] = [
  /\bENOTCACHED\b/,
  /\bENOTFOUND\b/,
  /\bEAI_AGAIN\b/,
  /\bECONNREFUSED\b/,
  /\bETIMEDOUT\b/,
  /ERR_PNPM_NO_OFFLINE_(?:TARBALL|META)/,
  /ERR_PNPM_META_FETCH_FAIL/,
  /Couldn't find any versions for .* that matches .* in our cache/i,
  /There appears to be trouble with your network connection/i,
  /YN0081\b/, // Network access has been disabled by configuration
  /YN0080\b/, // Request to … has been blocked because of your configuration settings (enableNetwork false)
  /Can't make a request in offline mode/i,
  /Network access (?:has been )?disabled/i,
  /COREPACK_ENABLE_NETWORK/,
  /getaddrinfo/,
];

/** The typed stop for an install that exited with `exitCode` and printed `output`. */
export function installFailure(p: NodeProject, cmd: InstallCommand, exitCode: number, output: string, log?: string): DependencyError {
  const manager = p.manager.startsWith('yarn') ? 'yarn' : p.manager;
  const tail = lastLines(output, 6);
  if (exitCode === 127 || /command not found|ENOENT.*spawn/i.test(output))
    return new ToolMissingError(cmd.needs, `the repository installs with ${manager} (${p.because})`, fixFor(cmd.needs, manager));
  if (OUT_OF_STEP.some((r) => r.test(output))) return new LockfileOutOfStepError(p.lockfile, manager, tail);
  if (NO_NETWORK.some((r) => r.test(output)))
    return new CacheColdError(
      manager,
      tail,
      `Install them once in your checkout (${manager} install) with the network on, so the cache holds them, or run with --deps-network cache-first.`,
    );
  return new InstallFailedError(cmd.display, cmd.cwd, exitCode, tail, log);
}

export function fixFor(tool: string, manager: string): string {
  if (tool === 'corepack') return `corepack ships with Node.js (or npm install -g corepack); it runs the ${manager} the repository names in packageManager`;
  if (tool === 'npm') return 'install Node.js with npm';
  return `install ${tool}, or let corepack run it (corepack enable)`;
}

/** The last `n` non-empty lines, joined with " / ", without colour codes. */
export function lastLines(text: string, n: number): string {
  const lines = stripAnsi(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const cut = lines.slice(-n).join(' / ');
  return cut.length > 800 ? `…${cut.slice(-800)}` : cut || '(no output)';
}
