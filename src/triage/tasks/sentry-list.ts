/**
 * A Sentry project's crash groups as the crash-folder prompt lists them: per group, the Sentry
 * issue (title, culprit, events and users, first and last seen, link), the crash's type and
 * message, and its stack in the workspace (file:line, innermost first). The groups are few (the
 * issue limit, at most 100) and each entry is capped, so the list stays small.
 */
import type { SavedCrashGroup } from '../../store/state';

const MAX_TEXT = 300;

export function sentryGroupList(groups: readonly SavedCrashGroup[]): string {
  return groups
    .map((g) => {
      const s = g.sentry;
      const lines = [`- cause "${g.cause}": ${cut(g.signature)}`];
      if (s) {
        lines.push(`  Sentry issue ${s.shortId ?? s.id}: ${cut(s.title)}${s.culprit ? ` (in ${cut(s.culprit)})` : ''}`);
        lines.push(
          `  ${s.count} event${s.count === 1 ? '' : 's'}, ${s.userCount} user${s.userCount === 1 ? '' : 's'}` +
            `${s.firstSeen ? `, first seen ${s.firstSeen}` : ''}${s.lastSeen ? `, last seen ${s.lastSeen}` : ''}${s.permalink ? `; ${s.permalink}` : ''}`,
        );
      }
      if (g.message) lines.push(`  message: ${cut(g.message)}`);
      const frames = g.frames ?? [];
      lines.push(
        frames.length > 0
          ? `  stack (innermost first): ${frames.map((f) => `${f.fn || '?'} (${f.file}${f.line !== undefined ? `:${f.line}` : ''})`).join(' < ')}`
          : '  stack: no frame of the latest event is a file of this workspace',
      );
      return lines.join('\n');
    })
    .join('\n');
}

function cut(s: string): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length <= MAX_TEXT ? one : `${one.slice(0, MAX_TEXT)}…`;
}
