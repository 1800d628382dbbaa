/**
 * Every tool's view (view.ts) by the tool's name: how the transcript renders a saved call of
 * any run, without building the tools (no tracker, no workspace). Typed by TOOL_NAMES, so a
 * tool without a view does not compile.
 */
import { TOOL_NAMES } from './index';
import { codePatchView } from './code-patch';
import { issueFileView } from './issue-file';
import { issueLookupView } from './issue-lookup';
import { listFilesView } from './list-files';
import { readFileView } from './read-file';
import { runTestsView } from './run-tests';
import { searchFilesView } from './search-files';
import { writeFileView } from './write-file';
import type { ToolView } from './view';

const VIEWS: Record<(typeof TOOL_NAMES)[number], ToolView> = {
  list_files: listFilesView,
  read_file: readFileView,
  search_files: searchFilesView,
  run_tests: runTestsView,
  write_file: writeFileView,
  code_patch: codePatchView,
  issue_file: issueFileView,
  issue_lookup: issueLookupView,
};

/** The view of the tool named `name`; undefined for a name no tool has (a call the model made up). */
export function toolView(name: string): ToolView | undefined {
  return (TOOL_NAMES as readonly string[]).includes(name) ? VIEWS[name as (typeof TOOL_NAMES)[number]] : undefined;
}
