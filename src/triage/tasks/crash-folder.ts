/**
 * A user's own folder of crash reports, triaged in their own workspace: one group per
 * subfolder (or one group for a flat folder). No recording and no checks: it needs a
 * real model, and there is no bundled answer to judge it against.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';
import { resolveInWorkspace } from '../workspace-paths';
import { TRIAGE_SYSTEM } from './prompts';
import type { GroupSpec, TaskSpec } from './catalog';

export const CRASH_FOLDER_TASK = 'crash-folder';

export async function crashFolderTask(workspace: string, crashes: string | undefined): Promise<TaskSpec> {
  if (!crashes) throw new BadInputError(`The ${CRASH_FOLDER_TASK} task needs the folder of crash reports (relative to the workspace).`);
  let abs: string;
  try {
    abs = resolveInWorkspace(workspace, crashes);
  } catch (e) {
    throw new BadInputError(`The crash reports folder ${crashes}: ${(e as Error).message}`);
  }
  const entries = await fs.readdir(abs, { withFileTypes: true }).catch(() => {
    throw new BadInputError(`The crash reports folder ${crashes} does not exist in ${workspace}.`);
  });
  const rel = crashes.split(path.sep).join('/').replace(/\/+$/, '');
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  if (dirs.length === 0 && files.length === 0) throw new BadInputError(`The crash reports folder ${crashes} is empty.`);
  const group = (cause: string, folder: string): GroupSpec => ({ cause, summary: `crash reports in ${folder}`, crashes: folder, file: '', test: `test/regression-${cause}.test.js` });
  const groups = dirs.length > 0 ? dirs.map((d) => group(d, `${rel}/${d}`)) : [group(path.basename(rel), rel)];
  const folders = groups.map((g) => `- ${g.crashes}/ (cause "${g.cause}")`).join('\n');
  const prompt = `Triage the crash reports of this repository. They are grouped by cause, one folder per cause:
${folders}
For each folder:
1. find the bug the reports point at;
2. write a regression test at test/regression-<cause>.test.js (or where this repository keeps its tests) that reproduces it, and run it to see it fail;
3. fix the bug with code_patch;
4. run the tests until the whole suite passes;
5. file exactly one issue with issue_file: cause = the folder's cause, a title saying what goes wrong, and a body that cites the crash reports by path and says what you fixed.
When every folder is done, answer with a short summary that names each issue by number (#N).`;
  return {
    name: CRASH_FOLDER_TASK,
    description: `The crash reports in ${rel}`,
    sample: '',
    recording: '',
    groups,
    prompt,
    system: TRIAGE_SYSTEM,
    checkNames: [],
    checks: [],
  };
}
