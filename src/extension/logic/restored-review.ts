/**
 * A Review Changes tab the editor restored after a reload: the multi-file changes editor keeps
 * its title but not its files ("No Changed Files"), so the extension opens the run's changes
 * again in its place. Which tabs those are, and which run each names, from the tab's label.
 */
import { PREFIX } from './texts';
import { shortRunId } from './run-rows';

/** The title Review Changes gives its multi-file diff (the editor may add " (N files)"). */
export function reviewTitle(runId: string, task?: string): string {
  return `${PREFIX}: changes of ${shortRunId(runId, task)} (before the run ↔ now)`;
}

/** The title Show Diff gives the multi-file diff of files changed behind the agent's back. */
export const CHANGED_FILES_TITLE = `${PREFIX}: agent's versions ↔ current files`;

export type RestoredTab = { kind: 'review'; runId: string } | { kind: 'review-unknown' } | { kind: 'changed-files' } | undefined;

/**
 * What a restored tab labelled `label` is: a Review Changes of one of `runs` (reopen it), a
 * Review Changes of a run no longer here or a Show Diff of changed files (close it: there is
 * nothing to reopen), or none of the extension's (undefined: leave it).
 */
export function restoredTab(label: string, runs: readonly { runId: string; task?: string }[]): RestoredTab {
  if (label.startsWith(CHANGED_FILES_TITLE)) return { kind: 'changed-files' };
  if (!label.startsWith(`${PREFIX}: changes of `)) return undefined;
  const run = runs.find((r) => label.startsWith(reviewTitle(r.runId, r.task)));
  return run ? { kind: 'review', runId: run.runId } : { kind: 'review-unknown' };
}
