/**
 * `triage group --crashes FOLDER [--workspace DIR] [--json]`: the crash groups a folder of raw
 * crash reports makes (cause slug, signature, reports), as a crash-folder run would see them.
 * FOLDER is relative to the workspace (default: the current folder).
 */
import * as path from 'node:path';
import { flags } from '../flags';
import { BadInputError } from '../../core/errors';
import { groupCrashes } from '../../crashes/group';
import { EXIT } from '../exitcodes';

export async function cmdGroup(args: string[]): Promise<number> {
  const { values: v } = flags(args, { crashes: { type: 'string' }, workspace: { type: 'string' }, json: { type: 'boolean', default: false } });
  if (!v.crashes) throw new BadInputError('triage group needs --crashes FOLDER (relative to the workspace).');
  const workspace = path.resolve((v.workspace as string | undefined) ?? '.');
  const g = await groupCrashes(workspace, v.crashes as string);
  if (v.json) {
    process.stdout.write(
      JSON.stringify({
        folder: g.folder,
        groups: g.groups.map((x) => ({ cause: x.cause, signature: x.signature, message: x.message, frames: x.frames, reports: x.reports })),
        ungrouped: g.ungrouped,
        skipped: g.skipped,
      }) + '\n',
    );
    return EXIT.done;
  }
  const count = g.groups.reduce((n, x) => n + x.reports.length, 0);
  process.stdout.write(`${g.groups.length} crash group(s) from ${count} crash(es) in ${g.folder}/\n`);
  for (const x of g.groups) {
    process.stdout.write(`\n${x.cause}  (${x.reports.length} report${x.reports.length === 1 ? '' : 's'})\n  ${x.signature}\n  ${x.message}\n`);
    if (x.frames.length > 1)
      process.stdout.write(
        `  via ${x.frames
          .slice(1)
          .map((f) => `${f.fn} (${f.file})`)
          .join(' < ')}\n`,
      );
    for (const r of x.reports) process.stdout.write(`  - ${r}\n`);
  }
  if (g.ungrouped.length > 0) process.stdout.write(`\nno crash found in: ${g.ungrouped.join(', ')}\n`);
  if (g.skipped.length > 0) process.stdout.write(`\nnot read: ${g.skipped.map((x) => `${x.path} (${x.reason})`).join(', ')}\n`);
  return EXIT.done;
}
