/**
 * "Crash reports folder…": the user's own folder of crash reports, which must be inside the
 * open workspace (the agent works there and reads nothing outside it).
 */
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';

/** The task name the job runs a user's own crash folder under (no recording, no checks). */
export { CRASH_FOLDER_TASK } from '../../triage/tasks/crash-folder';

/** The folder relative to the workspace, with forward slashes; BadInputError when it is outside. */
export function crashFolderRel(workspace: string, chosen: string): string {
  const rel = path.relative(path.resolve(workspace), path.resolve(chosen));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new BadInputError(
      `Pick a folder of crash reports inside the open workspace (${workspace}); ${chosen} is ${rel === '' ? 'the workspace itself' : 'outside it'}.`,
    );
  }
  return rel.split(path.sep).join('/');
}
