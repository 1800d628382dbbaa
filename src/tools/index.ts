/**
 * The triage job's tools. Names and arguments are fixed: the recorded conversations use them.
 *
 * `keys` turns idempotency keys on for issue_file (keyed, with a lookup by key; on GitHub, a
 * lookup by the key in its hidden marker) or off (neither: a marked filing goes to a person).
 * `causes`: the run's crash groups, the only causes issue_file files for.
 * `testCommand`: run_tests runs it instead of the detected runner. `workspace`, when given, lets describe()
 * show a before/after diff for code_patch and write_file. `hidden`: folders every file tool treats
 * as outside the workspace (the run's state folder: hidden-folders.ts). `ripgrep`: which rg search_files
 * runs (the editor passes its bundled copy).
 */
import type { Tool } from '../agent/tool';
import type { Tracker } from '../tracker/tracker';
import { codePatchTool } from './code-patch';
import { issueFileTool } from './issue-file';
import { issueLookupTool } from './issue-lookup';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { runTestsTool } from './run-tests';
import { searchFilesTool } from './search-files';
import type { RipgrepOptions } from './search/find-ripgrep';
import { writeFileTool } from './write-file';

export const TOOL_NAMES = ['list_files', 'read_file', 'search_files', 'run_tests', 'write_file', 'code_patch', 'issue_file', 'issue_lookup'] as const;

export function triageTools(o: {
  tracker: Tracker;
  keys: boolean;
  workspace?: string;
  testCommand?: string;
  hidden?: readonly string[];
  causes?: readonly string[];
  /** Which ripgrep search_files runs (search/find-ripgrep.ts); default: DURABLE_TRIAGE_RG, then rg on PATH. */
  ripgrep?: RipgrepOptions;
}): Tool[] {
  const hidden = o.hidden ?? [];
  return [
    listFilesTool({ hidden }),
    readFileTool({ hidden }),
    searchFilesTool({ hidden, ...(o.ripgrep ? { ripgrep: o.ripgrep } : {}) }),
    runTestsTool(o.testCommand ? { command: o.testCommand } : {}),
    writeFileTool({ workspace: o.workspace, hidden }),
    codePatchTool({ workspace: o.workspace, hidden }),
    issueFileTool({ tracker: o.tracker, keys: o.keys, ...(o.causes ? { causes: o.causes } : {}) }),
    issueLookupTool({ tracker: o.tracker }),
  ];
}

export { codePatchTool, issueFileTool, issueLookupTool, listFilesTool, readFileTool, runTestsTool, searchFilesTool, writeFileTool };
