/** Restore after a workspace change: its confirmation, and where the person's versions were kept. */
import { PREFIX } from './texts';
import { noLinks } from './no-links';

export function restoreConfirmMessage(runId: string, paths: readonly string[]): string {
  return noLinks(
    `Restore the agent's version of ${paths.join(', ')} in run ${runId}? Your current versions are copied to a folder beside the run's state first.`,
  );
}

export function keptVersionsMessage(kept: readonly string[], folder: string): string {
  return noLinks(`${PREFIX}: your version${kept.length === 1 ? '' : 's'} of ${kept.join(', ')} ${kept.length === 1 ? 'is' : 'are'} kept in ${folder}.`);
}
