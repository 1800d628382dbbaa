/**
 * What describe() shows a person: the file as it is now, for a before/after diff. Only
 * possible when the tool set was built with its workspace (describe() gets no context).
 */
import { resolveInWorkspace, toRel } from '../workspace/paths';
import { readRegularFileSync } from './regular-file';

/** Files bigger than this are not shown in a diff. */
const PREVIEW_CAP = 1_000_000;

/**
 * The current text of a workspace file ("" when it does not exist yet), or undefined (no diff
 * to show) for a path the tools would refuse (`hidden`: the folders they treat as outside the
 * workspace), a file too big to show, one that cannot be read, or one that is not a regular
 * file (never waited on: regular-file.ts).
 */
export function currentText(workspace: string, p: unknown, hidden?: readonly string[]): { rel: string; text: string } | undefined {
  let abs: string;
  try {
    abs = resolveInWorkspace(workspace, p, hidden);
  } catch {
    return undefined;
  }
  const rel = toRel(workspace, abs);
  try {
    const head = readRegularFileSync(abs, rel, { skipAbove: PREVIEW_CAP });
    return head.size > PREVIEW_CAP ? undefined : { rel, text: head.bytes.toString('utf8') };
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { rel, text: '' } : undefined;
  }
}
