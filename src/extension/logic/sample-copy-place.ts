/**
 * "Open a Copy of the Sample…": where the folder dialog starts. Not the open folder (the copy
 * would land inside the user's repository) but the folder that holds it.
 */
import * as path from 'node:path';

export function sampleCopyStart(workspace: string | undefined, home: string): string {
  if (!workspace) return home;
  const parent = path.dirname(path.resolve(workspace));
  return parent === path.resolve(workspace) ? home : parent;
}
