/**
 * The triage job's tools. Names and arguments are fixed: the recorded conversations use them.
 *
 * `keys` turns idempotency keys on for issue_file (keyed, with a lookup by key; on GitHub, a
 * lookup by the key in its hidden marker) or off (neither: a marked filing goes to a person).
 * `causes`: the run's crash groups, the only causes issue_file files for.
 * `testCommand`: run_tests runs it instead of the detected runner. `workspace`, when given, lets describe()
 * show a before/after diff for the editing tools (write_file, code_patch, str_replace, the text editor, apply_patch).
 * The text editor is offered to Anthropic's models only and apply_patch to OpenAI's (Tool.vendor); the rest to every model. `hidden`: folders every file tool treats
 * as outside the workspace (the run's state folder: hidden-folders.ts). `ripgrep`: which rg search_files
 * runs (the editor passes its bundled copy).
 */
import type { Tool } from '../agent/tool';
import type { Tracker } from '../tracker/tracker';
import { applyPatchTool } from './apply-patch';
import { codePatchTool } from './code-patch';
import { gitBlameTool, gitLogSearchTool, gitLogTool, gitShowTool } from './git-history';
import { issueFileTool, type IssueFileOptions } from './issue-file';
import { issueLookupTool } from './issue-lookup';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { runTestsTool } from './run-tests';
import { searchFilesTool } from './search-files';
import type { RipgrepOptions } from './search/find-ripgrep';
import { strReplaceTool } from './str-replace';
import { textEditorTool } from './text-editor';
import { writeFileTool } from './write-file';

export const TOOL_NAMES = [
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
  'str_replace_based_edit_tool',
  'apply_patch',
  'issue_file',
  'issue_lookup',
] as const;

export function triageTools(o: {
  tracker: Tracker;
  keys: boolean;
  workspace?: string;
  testCommand?: string;
  hidden?: readonly string[];
  causes?: readonly string[];
  /** The causes that are Sentry issues: issue_file links each in the body it files. */
  sentry?: IssueFileOptions['sentry'];
  /** Which ripgrep search_files runs (search/find-ripgrep.ts); default: DURABLE_TRIAGE_RG, then rg on PATH. */
  ripgrep?: RipgrepOptions;
}): Tool[] {
  const hidden = o.hidden ?? [];
  return [
    listFilesTool({ hidden }),
    readFileTool({ hidden }),
    searchFilesTool({ hidden, ...(o.ripgrep ? { ripgrep: o.ripgrep } : {}) }),
    gitLogTool({ hidden }),
    gitBlameTool({ hidden }),
    gitShowTool({ hidden }),
    gitLogSearchTool({ hidden }),
    runTestsTool(o.testCommand ? { command: o.testCommand } : {}),
    writeFileTool({ workspace: o.workspace, hidden }),
    codePatchTool({ workspace: o.workspace, hidden }),
    strReplaceTool({ workspace: o.workspace, hidden }),
    textEditorTool({ workspace: o.workspace, hidden }),
    applyPatchTool({ workspace: o.workspace, hidden }),
    issueFileTool({ tracker: o.tracker, keys: o.keys, ...(o.causes ? { causes: o.causes } : {}), ...(o.sentry?.length ? { sentry: o.sentry } : {}) }),
    issueLookupTool({ tracker: o.tracker }),
  ];
}

export {
  applyPatchTool,
  codePatchTool,
  gitBlameTool,
  gitLogSearchTool,
  gitLogTool,
  gitShowTool,
  issueFileTool,
  issueLookupTool,
  listFilesTool,
  readFileTool,
  runTestsTool,
  searchFilesTool,
  strReplaceTool,
  textEditorTool,
  writeFileTool,
};
