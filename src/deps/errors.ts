/**
 * The stops a cause's worktree can meet while it gets what the repository's tests need
 * (src/deps/prepare.ts). Each names the worktree's repository folder, what failed and what to do;
 * the run stops where it is, saved (the tool call that needed the worktree never ran), with exit
 * status 20, and the same command again tries once more. The user's checkout is never written.
 */
import { ServiceStopError } from '../core/errors';

export type DependencyStop = 'lockfile' | 'install' | 'missing-tool' | 'offline';

/**
 * A ServiceStopError, so the agent loop does not hand it to the model as the call's result: the
 * run stops with the call's attempt marker saved and no result, and a resume puts the call to the
 * ladder (the tools that make a worktree are rerun: nothing happened before the worktree was ready).
 */
export abstract class DependencyError extends ServiceStopError {
  abstract readonly stop: DependencyStop;
  get service(): string {
    return "the cause's worktree set-up";
  }
}

/** The lock file does not match package.json (npm ci, pnpm/yarn's frozen or immutable install refused it). */
export class LockfileOutOfStepError extends DependencyError {
  readonly code = 'deps-lockfile';
  readonly stop = 'lockfile';
  constructor(
    readonly lockfile: string,
    readonly manager: string,
    detail: string,
  ) {
    super(
      `The lock file ${lockfile} is out of step with package.json at the run's base commit (${manager} refused to install from it: ${detail}). Commit an updated lock file on the base branch (run ${manager} install in your checkout), then start a new run (--new).`,
    );
  }
}

/** The install ran and failed for another reason (a package that does not build, a registry error). */
export class InstallFailedError extends DependencyError {
  readonly code = 'deps-install';
  readonly stop = 'install';
  constructor(
    readonly command: string,
    readonly where: string,
    readonly exitCode: number,
    detail: string,
    readonly log?: string,
  ) {
    super(
      `Installing the dependencies in the cause's worktree failed: \`${command}\` in ${where} exited with ${exitCode}: ${detail}${log ? ` (the whole output: ${log})` : ''}. Fix it and run the same command again, or choose --deps copy or --deps reuse (your checkout's installed node_modules, where its lock file is the base commit's) or --deps off (the setting durableTriage.pullRequests.dependencies).`,
    );
  }
}

/** The package manager, Python or Go the repository needs is not installed here. */
export class ToolMissingError extends DependencyError {
  readonly code = 'deps-missing-tool';
  readonly stop = 'missing-tool';
  constructor(
    readonly tool: string,
    readonly why: string,
    readonly fix: string,
  ) {
    super(`${tool} is needed to get the cause's worktree ready (${why}) but it is not installed here: ${fix}. Then run the same command again.`);
  }
}

/** What is needed is not in the package manager's cache (or Go's module cache), and downloading is not allowed or not possible. */
export class CacheColdError extends DependencyError {
  readonly code = 'deps-offline';
  readonly stop = 'offline';
  constructor(
    readonly manager: string,
    detail: string,
    readonly fix: string,
  ) {
    super(`The dependencies are not in ${manager}'s cache and could not be downloaded: ${detail}. ${fix}`);
  }
}
