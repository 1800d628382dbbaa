/**
 * What describe() shows a person: the file as it is now, for a before/after diff. Only
 * possible when the tool set was built with its workspace (describe() gets no context).
 */
import * as fs from 'node:fs';
import { resolveInWorkspace, toRel } from '../workspace-paths';

/** The current text of a workspace file ("" when it does not exist yet), or undefined for a path the tools would refuse. */
export function currentText(workspace: string, p: unknown): { rel: string; text: string } | undefined {
  let abs: string;
  try {
    abs = resolveInWorkspace(workspace, p);
  } catch {
    return undefined;
  }
  try {
    return { rel: toRel(workspace, abs), text: fs.readFileSync(abs, 'utf8') };
  } catch {
    return { rel: toRel(workspace, abs), text: '' };
  }
}
