/**
 * A catalog task works on its own sample project: started on another folder it would write its
 * tests and patches into a project they do not fit. A folder counts as a copy of the task's
 * sample when it holds the sample's crash reports (crashes/**) byte for byte: the reports are
 * what the task triages, and no run changes them (a check says so), so a copy the task already
 * ran in still counts.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BadInputError } from '../../core/errors';
import { tasks, type TaskSpec } from './catalog';

/** Why a folder is not a copy of a task's sample: no crashes/ folder, or one whose reports are not the sample's. */
export type SampleMismatch = { kind: 'no-crash-folder' } | { kind: 'other-reports'; report: string; missing: boolean };

function mismatchText(m: SampleMismatch | undefined): string {
  if (!m || m.kind === 'no-crash-folder') return "it has no crashes/ folder with the task's crash reports";
  return `its crashes/ folder holds other crash reports than the sample's (crashes/${m.report} is ${m.missing ? 'missing' : 'different'})`;
}

/** A catalog task was started on a folder that is not a copy of its sample. */
export class WrongWorkspaceError extends BadInputError {
  constructor(
    readonly task: string,
    readonly sample: string,
    readonly workspace: string,
    /** The catalog task whose sample this folder is, if any. */
    readonly matching?: string,
    readonly mismatch?: SampleMismatch,
  ) {
    super(
      `${task} works on its own sample project, and this folder (${path.basename(workspace)}) is not a copy of it: ${mismatchText(mismatch)}. ` +
        `Open a copy of the sample and start ${task} there` +
        (matching ? `, or start ${matching}, whose sample this folder is.` : '; for your own crash reports pick "Crash reports folder…" instead.') +
        ' Nothing was written.',
    );
  }
}

async function filesUnder(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

/** Why `workspace` is not a copy of the task's sample; undefined when it holds every crash report of the sample, unchanged. */
export async function sampleMismatch(task: Pick<TaskSpec, 'sample'>, workspace: string): Promise<SampleMismatch | undefined> {
  const reports = path.join(task.sample, 'crashes');
  const files = await filesUnder(reports).catch(() => []);
  const has = await fs.stat(path.join(workspace, 'crashes')).then(
    (st) => st.isDirectory(),
    () => false,
  );
  if (files.length === 0 || !has) return { kind: 'no-crash-folder' };
  for (const rel of files) {
    const [want, got] = await Promise.all([fs.readFile(path.join(reports, rel)), fs.readFile(path.join(workspace, 'crashes', rel)).catch(() => undefined)]);
    if (!got || !want.equals(got)) return { kind: 'other-reports', report: rel, missing: !got };
  }
  return undefined;
}

/** True when `workspace` holds every crash report of the task's sample, unchanged. */
export async function isSampleCopy(task: Pick<TaskSpec, 'sample'>, workspace: string): Promise<boolean> {
  return (await sampleMismatch(task, workspace)) === undefined;
}

/** Refuses (WrongWorkspaceError) a catalog task on a folder that is not a copy of its sample. */
export async function assertSampleCopy(task: TaskSpec, workspace: string): Promise<void> {
  const mismatch = await sampleMismatch(task, workspace);
  if (!mismatch) return;
  let matching: string | undefined;
  for (const t of tasks()) if (t.name !== task.name && (await isSampleCopy(t, workspace))) matching = t.name;
  throw new WrongWorkspaceError(task.name, task.sample, workspace, matching, mismatch);
}

/** Copies the task's sample into a new folder `<parent>/<task>` (`-2`, `-3`… when taken); returns it. */
export async function copySample(task: TaskSpec, parent: string): Promise<string> {
  for (let n = 1; ; n++) {
    const dest = path.join(parent, n === 1 ? task.name : `${task.name}-${n}`);
    const taken = await fs.stat(dest).then(
      () => true,
      () => false,
    );
    if (taken) continue;
    await fs.cp(task.sample, dest, { recursive: true, errorOnExist: true, force: false });
    return dest;
  }
}
