/**
 * A run with pull requests (`--pull-requests`): each cause (crash group) gets its own branch and
 * worktree (src/git/cause-branches.ts), the file tools act in the worktree of the cause they
 * name (src/tools/in-cause-worktree.ts), commit_fix commits a cause's test and fix there once,
 * and pull_request pushes the branch and opens one pull request for it, once. What the run
 * needs for that is decided when it starts and saved with it (the run's options): the
 * repository, the workspace's folder in it, the base branch and its commit, the remote, draft.
 */
import { BadInputError } from '../core/errors';
import type { RunState } from '../store/state';
import type { Tool } from '../agent/tool';
import { resolveBase } from '../git/base';
import { CauseBranches } from '../git/cause-branches';
import { DEFAULT_DEPS, depsOptionsOf, depsRunOptions, type DepsOptions } from '../deps/options';
import { prepareWorktree } from '../deps/prepare';
import { GitHubTracker } from '../tracker/github/github-tracker';
import { GitHubPulls } from '../tracker/github/pulls';
import type { Tracker } from '../tracker/tracker';
import { commitFixTool } from '../tools/commit-fix';
import { inCauseWorktree } from '../tools/in-cause-worktree';
import { pullRequestTool } from '../tools/pull-request';

export interface PullRequestChoice {
  /** The branch the pull requests are for (default: the branch checked out in the workspace). */
  base?: string;
  /** The remote pushed to (default: origin). */
  remote?: string;
  /** Draft pull requests (default: true). */
  draft?: boolean;
  /** How each cause's worktree gets the tests' dependencies (default: installed from the lock file, scripts off, cache first). */
  deps?: DepsOptions;
}

/** The file tools that act in a cause's worktree once pull requests are on. */
export const FILE_TOOLS: readonly string[] = [
  'list_files',
  'read_file',
  'search_files',
  'git_log',
  'git_blame',
  'git_show',
  'git_log_search',
  'run_tests',
  'write_file',
  'code_patch',
  'str_replace',
  'apply_patch',
];

/**
 * Not offered with pull requests on: Anthropic's built-in text editor has a fixed argument shape
 * that cannot name a cause, so it could only write in the user's checkout (str_replace does its work).
 */
export const NOT_WITH_PULL_REQUESTS: readonly string[] = ['str_replace_based_edit_tool'];

const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Checked before anything is made: pull requests need a GitHub tracker and a workspace of the user's. */
export function checkPullRequestChoice(c: PullRequestChoice, workspace: string | undefined, trackerKind: string): void {
  if (trackerKind !== 'github')
    throw new BadInputError(
      'Pull requests (--pull-requests, or the setting durableTriage.pullRequests.enabled) are opened on GitHub: set the tracker to github:OWNER/REPO, the repository the branches are pushed to (--tracker, or the setting durableTriage.tracker).',
    );
  if (!workspace)
    throw new BadInputError(
      'Pull requests are made from your own clone: give --workspace DIR (a folder of a git repository), or open that folder in the editor.',
    );
  if (c.remote !== undefined && !REMOTE_NAME.test(c.remote)) throw new BadInputError(`--remote "${c.remote}" is not the name of a git remote (e.g. origin).`);
}

/** The run's saved options for pull requests (the base's commit resolved now, so a resumed run branches from the same one). */
export async function resolvePullRequestOptions(c: PullRequestChoice, workspace: string, trackerKind: string): Promise<Record<string, string>> {
  checkPullRequestChoice(c, workspace, trackerKind);
  const b = await resolveBase(workspace, c.base);
  return {
    pullRequests: 'on',
    prRepoRoot: b.repoRoot,
    prPrefix: b.prefix,
    prBase: b.base,
    prBaseSha: b.baseSha,
    prRemote: c.remote ?? 'origin',
    prDraft: c.draft === false ? 'false' : 'true',
    ...depsRunOptions(c.deps ?? DEFAULT_DEPS),
  };
}

/** The run's tools with pull requests on (its saved options say so): file tools per cause, commit_fix and pull_request; else the tools as given. */
export function causeBranchTools(tools: Tool[], state: RunState, o: { tracker: Tracker; causes: readonly string[]; worktreesDir: string }): Tool[] {
  const opt = state.config.options ?? {};
  if (opt.pullRequests !== 'on') return tools;
  if (o.causes.length === 0) throw new BadInputError(`Run ${state.runId} has pull requests on but no crash groups: there is no cause to branch for.`);
  if (!(o.tracker instanceof GitHubTracker))
    throw new BadInputError(`Run ${state.runId} opens pull requests on GitHub, but its tracker is ${o.tracker.name}: resume it with its GitHub tracker.`);
  const branches = causeBranchesOf(state, o.worktreesDir);
  const [owner, repo] = o.tracker.name.slice('github:'.length).split('/');
  const keys = state.config.keys;
  return [
    ...tools.filter((t) => !NOT_WITH_PULL_REQUESTS.includes(t.name)).map((t) => (FILE_TOOLS.includes(t.name) ? inCauseWorktree(t, branches, o.causes) : t)),
    commitFixTool({ branches, causes: o.causes, keys }),
    pullRequestTool({
      branches,
      pulls: new GitHubPulls(o.tracker, owner, repo),
      tracker: o.tracker,
      causes: o.causes,
      keys,
      remote: opt.prRemote ?? 'origin',
      draft: opt.prDraft !== 'false',
    }),
  ];
}

function causeBranchesOf(state: RunState, worktreesDir: string): CauseBranches {
  const opt = state.config.options ?? {};
  const prefix = opt.prPrefix ?? '';
  const deps = depsOptionsOf(opt);
  return new CauseBranches({
    runId: state.runId,
    worktreesDir,
    repoRoot: opt.prRepoRoot,
    prefix,
    base: opt.prBase,
    baseSha: opt.prBaseSha,
    // Beside the worktree, never in it: what made it ready (so a resumed run installs nothing again) and the install's output.
    setup: async ({ cause, dir, made, signal, progress }) =>
      prepareWorktree({
        checkoutTop: opt.prRepoRoot,
        worktreeTop: dir,
        prefix,
        options: deps,
        record: `${dir}.ready.json`,
        log: `${dir}.install.log`,
        made,
        ...(signal ? { signal } : {}),
        ...(progress ? { progress: (text: string) => progress(`${cause}'s worktree: ${text}`) } : {}),
      }),
  });
}

/** With pull requests on: the open pull request of a cause's branch (what sentry_comment links); else undefined. */
export function causePullRequest(
  state: RunState,
  o: { tracker: Tracker; worktreesDir: string },
): ((cause: string, signal: AbortSignal) => Promise<{ number: number; title: string; url: string } | undefined>) | undefined {
  if (state.config.options?.pullRequests !== 'on' || !(o.tracker instanceof GitHubTracker)) return undefined;
  const branches = causeBranchesOf(state, o.worktreesDir);
  const [owner, repo] = o.tracker.name.slice('github:'.length).split('/');
  const pulls = new GitHubPulls(o.tracker, owner, repo);
  return async (cause, signal) => (await pulls.byHead(branches.branch(cause), signal)).find((p) => p.cause === cause && p.state !== 'closed');
}
