/**
 * Every tool's view (view.ts) by the tool's name: how the transcript renders a saved call of
 * any run, without building the tools (no tracker, no workspace). Typed by TOOL_NAMES, so a
 * tool without a view does not compile.
 */
import { TOOL_NAMES } from './index';
import { applyPatchView } from './apply-patch';
import { codePatchView } from './code-patch';
import { gitBlameView, gitLogSearchView, gitLogView, gitShowView } from './git-history';
import { issueFileView } from './issue-file';
import { issueLookupView } from './issue-lookup';
import { listFilesView } from './list-files';
import { readFileView } from './read-file';
import { runTestsView } from './run-tests';
import { searchFilesView } from './search-files';
import { strReplaceView } from './str-replace';
import { textEditorView } from './text-editor';
import { writeFileView } from './write-file';
import type { ToolView } from './view';
import { commitFixView } from './commit-fix';
import { pullRequestView } from './pull-request';
import { sentryCommentView } from './sentry-comment';

const VIEWS: Record<(typeof TOOL_NAMES)[number], ToolView> = {
  list_files: listFilesView,
  read_file: readFileView,
  search_files: searchFilesView,
  git_log: gitLogView,
  git_blame: gitBlameView,
  git_show: gitShowView,
  git_log_search: gitLogSearchView,
  run_tests: runTestsView,
  write_file: writeFileView,
  code_patch: codePatchView,
  str_replace: strReplaceView,
  str_replace_based_edit_tool: textEditorView,
  apply_patch: applyPatchView,
  issue_file: issueFileView,
  issue_lookup: issueLookupView,
};

/** The tools a run has only with its options (--pull-requests, a Sentry crash source): not in TOOL_NAMES, viewed all the same. */
export const RUN_OPTION_VIEWS: Readonly<Record<'commit_fix' | 'pull_request' | 'sentry_comment', ToolView>> = {
  commit_fix: commitFixView,
  pull_request: pullRequestView,
  sentry_comment: sentryCommentView,
};

/** The view of the tool named `name`; undefined for a name no tool has (a call the model made up). */
export function toolView(name: string): ToolView | undefined {
  if (Object.hasOwn(RUN_OPTION_VIEWS, name)) return RUN_OPTION_VIEWS[name as keyof typeof RUN_OPTION_VIEWS];
  return (TOOL_NAMES as readonly string[]).includes(name) ? VIEWS[name as (typeof TOOL_NAMES)[number]] : undefined;
}
