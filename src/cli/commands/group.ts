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
import { isSentrySource } from '../../crashes/sentry/source';
import { sentryGroups } from '../../triage/tasks/crash-folder';
import { sentryFetchOf } from '../../triage/job';
import { SENTRY_FLAGS, sentryFromFlags } from '../sentry-flags';
import type { SavedCrashGroup } from '../../store/state';

export async function cmdGroup(args: string[]): Promise<number> {
  const { values: v } = flags(args, {
    crashes: { type: 'string' },
    workspace: { type: 'string' },
    ...SENTRY_FLAGS,
    json: { type: 'boolean', default: false },
  });
  if (!v.crashes) throw new BadInputError('triage group needs --crashes FOLDER (relative to the workspace) or --crashes sentry:ORG/PROJECT.');
  const workspace = path.resolve((v.workspace as string | undefined) ?? '.');
  if (isSentrySource(v.crashes as string)) {
    const crashes = v.crashes as string;
    const groups = await sentryGroups(workspace, crashes, sentryFetchOf({ crashes, sentry: sentryFromFlags(v) })!);
    printSentryGroups(crashes, groups, v.json === true);
    return EXIT.done;
  }
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

/** A Sentry project's groups, as a run would start on them (the token is never printed). */
function printSentryGroups(crashes: string, groups: SavedCrashGroup[], json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify({ source: crashes, groups }) + '\n');
    return;
  }
  process.stdout.write(`${groups.length} crash group(s) from the Sentry issues of ${crashes.slice('sentry:'.length)}\n`);
  for (const g of groups) {
    const s = g.sentry!;
    process.stdout.write(
      `\n${g.cause}  (${s.count} event${s.count === 1 ? '' : 's'}, ${s.userCount} user${s.userCount === 1 ? '' : 's'})\n  ${g.signature}\n  ${s.title}\n`,
    );
    for (const f of g.frames ?? []) process.stdout.write(`  at ${f.fn || '?'} (${f.file}${f.line !== undefined ? `:${f.line}` : ''})\n`);
    if (s.permalink) process.stdout.write(`  ${s.permalink}\n`);
  }
}
