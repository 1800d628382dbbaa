/**
 * A user's own folder of crash reports, triaged in their own workspace. A folder of subfolders
 * is one group per subfolder (already sorted by cause); a folder of raw reports (log files, stack
 * traces, JSON error events) is grouped by signature (crashes/group.ts). The groups are saved
 * with the run at its start, so a resumed run sees the same groups. The prompt tells the model
 * where this repository keeps its tests and in which language (runners/layout.ts), and lists the
 * groups, capped (crash-list.ts: a huge folder does not make a huge prompt). No recording
 * and no checks: it needs a real model, and there is no bundled answer to judge it against.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';
import type { SavedCrashGroup } from '../../store/state';
import { resolveInWorkspace } from '../../workspace/paths';
import { groupCrashes } from '../../crashes/group';
import { testLayout } from '../../runners/layout';
import { OWN_REPO_SYSTEM } from './prompts';
import { crashGroupList } from './crash-list';
import { sentryGroupList } from './sentry-list';
import { isSentrySource, parseSentrySource } from '../../crashes/sentry/source';
import { sentryCrashGroups, type SentryFetch } from '../../crashes/sentry/groups';
import type { GroupSpec, TaskSpec } from './catalog';

export const CRASH_FOLDER_TASK = 'crash-folder';

export interface CrashFolderOptions {
  /** The groups a run saved at its start (a resume): used instead of grouping again. */
  saved?: SavedCrashGroup[];
  /** The configured test command, if any (it changes what the prompt says about the tests). */
  testCommand?: string;
  /** Causes of groups to leave out of a new run (the editor's crash group pick); not with `saved`. */
  leaveOut?: readonly string[];
  /** With `crashes` "sentry:ORG/PROJECT" and no `saved`: where and how to fetch the project's issues (the token is never saved). */
  sentry?: SentryFetch;
}

export async function crashFolderTask(workspace: string, crashes: string | undefined, o: CrashFolderOptions = {}): Promise<TaskSpec> {
  if (!crashes) throw new BadInputError(`The ${CRASH_FOLDER_TASK} task needs the folder of crash reports (relative to the workspace).`);
  if (isSentrySource(crashes)) return sentryTask(workspace, crashes, o);
  const rel = crashes.split(path.sep).join('/').replace(/\/+$/, '');
  const layout = await testLayout(workspace, o.testCommand);
  const saved = o.saved ?? leaveGroupsOut(await crashFolderGroups(workspace, crashes), o.leaveOut ?? [], rel);
  const groups: GroupSpec[] = saved.map((g) => ({
    cause: g.cause,
    summary: g.signature,
    crashes: g.folder ?? rel,
    file: '',
    test: layout.regressionTest(g.cause),
    signature: g.signature,
    reports: g.reports,
  }));
  const list = crashGroupList(saved);
  const prompt = `Triage the crash reports of this repository, in ${rel}/. They are grouped by cause (error type and where it happened):
${list}

${layout.describe()}

${groupSteps(layout, 'read its reports and find the bug they point at', "cites the group's reports by path, says what you fixed")}`;
  return {
    name: CRASH_FOLDER_TASK,
    description: `The crash reports in ${rel}`,
    sample: '',
    recording: '',
    groups,
    crashGroups: saved,
    prompt,
    system: OWN_REPO_SYSTEM,
    checkNames: [],
    checks: [],
  };
}

/** A Sentry project's issues as the run's crash groups: fetched once for a new run, the saved ones on a resume. */
async function sentryTask(workspace: string, crashes: string, o: CrashFolderOptions): Promise<TaskSpec> {
  const { org, project } = parseSentrySource(crashes);
  const source = `sentry:${org}/${project}`;
  const layout = await testLayout(workspace, o.testCommand);
  let saved = o.saved;
  if (!saved) {
    if (!o.sentry) throw new BadInputError(`The crash groups of ${source} need the Sentry settings (its URL and a token) to be fetched.`);
    saved = leaveGroupsOut(await sentryGroups(workspace, crashes, o.sentry), o.leaveOut ?? [], source);
  }
  const groups: GroupSpec[] = saved.map((g) => ({
    cause: g.cause,
    summary: g.sentry?.title ?? g.signature,
    crashes: '',
    file: g.frames?.[0]?.file ?? '',
    test: layout.regressionTest(g.cause),
    signature: g.signature,
    reports: g.reports,
  }));
  const prompt = `Triage the crash groups of the Sentry project ${org}/${project}, the crashes of this repository's code in production. Sentry grouped them; each is listed with its Sentry issue, how often it happened, and the stack of its latest event in this repository's files:
${sentryGroupList(saved)}

${layout.describe()}

${groupSteps(
  layout,
  'read the files in its stack and find the bug it points at',
  "says what you fixed (the group's Sentry issue is linked at its end for you)",
  ["then call sentry_comment once with the group's cause: it comments on the Sentry issue with the links of its issue (and pull request)."],
)}`;
  return {
    name: CRASH_FOLDER_TASK,
    description: `The crash groups of the Sentry project ${org}/${project}`,
    sample: '',
    recording: '',
    groups,
    crashGroups: saved,
    prompt,
    system: OWN_REPO_SYSTEM,
    checkNames: [],
    checks: [],
  };
}

/** A Sentry project's groups as a run would start on them; BadInputError when the query finds no issue. */
export async function sentryGroups(workspace: string, crashes: string, o: SentryFetch): Promise<SavedCrashGroup[]> {
  const groups = await sentryCrashGroups(workspace, crashes, o);
  if (groups.length === 0)
    throw new BadInputError(
      `The Sentry project ${crashes.slice('sentry:'.length)} has no issue for the query "${o.query}" at ${o.baseUrl}; change the query, or pick another project.`,
    );
  return groups;
}

/** The groups without those left out; BadInputError for a cause that is not a group, or when none is left. */
export function leaveGroupsOut(groups: SavedCrashGroup[], leaveOut: readonly string[], rel: string): SavedCrashGroup[] {
  const unknown = leaveOut.filter((c) => !groups.some((g) => g.cause === c));
  if (unknown.length > 0)
    throw new BadInputError(`No crash group ${unknown.map((c) => `"${c}"`).join(', ')} in ${rel}; its groups are: ${groups.map((g) => g.cause).join(', ')}.`);
  const kept = groups.filter((g) => !leaveOut.includes(g.cause));
  if (kept.length === 0) throw new BadInputError(`Every crash group of ${rel} was left out; keep at least one to start a run.`);
  return kept;
}

/**
 * The groups a crash-folder run would start on (the editor shows them before starting):
 * subfolders, one group each (their reports listed); else the folder's reports grouped by signature.
 */
export async function crashFolderGroups(workspace: string, crashes: string): Promise<SavedCrashGroup[]> {
  const rel = crashes.split(path.sep).join('/').replace(/\/+$/, '');
  let abs: string;
  try {
    abs = resolveInWorkspace(workspace, crashes);
  } catch (e) {
    throw new BadInputError(`The crash reports folder ${crashes}: ${(e as Error).message}`);
  }
  const entries = await fs.readdir(abs, { withFileTypes: true }).catch(() => {
    throw new BadInputError(`The crash reports folder ${crashes} does not exist in ${workspace}.`);
  });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  if (dirs.length > 0) {
    return Promise.all(
      dirs.map(async (d) => {
        const files = (await fs.readdir(path.join(abs, d), { withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => `${rel}/${d}/${e.name}`)
          .sort();
        return { cause: d, signature: `the reports in ${rel}/${d}/`, reports: files, folder: `${rel}/${d}` };
      }),
    );
  }
  const g = await groupCrashes(workspace, crashes);
  if (g.groups.length === 0) {
    const notRead =
      g.skipped.length === 0
        ? ''
        : ` ${g.skipped.length} entr${g.skipped.length === 1 ? 'y was' : 'ies were'} not read: ${g.skipped
            .slice(0, 5)
            .map((x) => `${x.path} (${x.reason})`)
            .join(', ')}${g.skipped.length > 5 ? ', ...' : ''}.`;
    throw new BadInputError(
      g.ungrouped.length === 0
        ? `The crash reports folder ${crashes} ${g.skipped.length === 0 ? 'is empty.' : 'has no report file that could be read.'}${notRead}`
        : `No crash was found in the ${g.ungrouped.length} report(s) of ${crashes} (no Node stack trace, Python traceback, Go panic or JSON error event with a stack); sort them into one subfolder per cause instead.${notRead}`,
    );
  }
  return g.groups.map((x) => ({ cause: x.cause, signature: x.signature, reports: x.reports }));
}

/**
 * What the model does for each crash group, whatever the groups came from; `evidence`: what the
 * issue body says; `more`: steps after the issue (and the pull request, when offered).
 */
function groupSteps(layout: { regressionTest(cause: string): string }, find: string, evidence: string, more: readonly string[] = []): string {
  const steps = [
    find,
    `write a regression test that reproduces it (for cause "<cause>": ${layout.regressionTest('<cause>')}), and run it with run_tests to see it fail`,
    'fix the bug with the smallest change (str_replace, or your own editing tool)',
    'run the tests until they all pass',
    "when the repository has git history, find the commit that introduced the bug (git_log with the crashing lines' range, git_blame, git_log_search for the code it added)",
    `file exactly one issue with issue_file: cause = the group's cause, a title saying what goes wrong, and a body that ${evidence}, and, when you found it, names the commit that introduced the bug on a line of its own: "Introduced by: <short hash> <commit subject>"`,
    'when commit_fix and pull_request are offered, commit the test and fix with commit_fix and open the pull request with pull_request',
    ...more,
  ];
  return `For each group:
${steps.map((t, i) => `${i + 1}. ${t.replace(/[.;]$/, '')}${i === steps.length - 1 ? '.' : ';'}`).join('\n')}
When every group is done, answer with a short summary that names each issue by number (#N).`;
}
