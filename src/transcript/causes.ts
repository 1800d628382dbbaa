/**
 * The transcript's row per cause (a crash-folder run's crash groups): its Sentry issue (as the
 * run saved it), the issue filed for it, its branch and commit, its pull request, its Sentry
 * comment, and what the ladder decided about the cause's calls after a restart. Made from the
 * saved results alone (each tool's view reads its own result: view.ts's `made`), so it is the same
 * after a reload. Only http(s) URLs are kept as links.
 */
import type { ToolCall, ToolResult } from '../core/conversation';
import type { CauseRow } from '../core/transcript';
import type { RunState } from '../store/state';
import { webLink } from '../tools/view';
import { causeMade, causeOf, filedIssue } from './calls';

export function causeRows(
  state: RunState,
  calls: readonly ToolCall[],
  results: ReadonlyMap<string, ToolResult>,
  /** The ladder's decisions by call, in words, in record order. */
  ladder: ReadonlyMap<string, string[]>,
  issueUrl: (n: number) => string | undefined,
): CauseRow[] {
  const rows = new Map<string, CauseRow>();
  for (const g of state.config.crashGroups ?? []) {
    const row: CauseRow = { cause: g.cause, ladder: [] };
    if (g.sentry) {
      const url = webLink(g.sentry.permalink);
      row.sentry = { label: g.sentry.shortId ?? g.sentry.id, ...(url ? { url } : {}) };
    }
    rows.set(g.cause, row);
  }
  for (const c of calls) {
    const cause = causeOf(c);
    const row = cause !== undefined ? rows.get(cause) : undefined;
    if (!row) continue;
    row.ladder.push(...(ladder.get(c.id) ?? []));
    const r = results.get(c.id);
    if (!r || r.isError) continue;
    const filed = filedIssue(c, r);
    if (filed && !row.issue) {
      const url = webLink(filed.url ?? issueUrl(filed.number));
      row.issue = { number: filed.number, ...(url ? { url } : {}) };
    }
    const made = causeMade(c, r)?.made;
    if (made) Object.assign(row, made);
  }
  const all = [...rows.values()];
  // Shown for the runs it is about (a Sentry project's, or with pull requests); a folder run's issues are listed as before.
  return all.some((r) => r.sentry || r.branch) ? all : [];
}

/** A row as lines of text (the CLI's transcript): "cause: Sentry API-1 <url> · issue #3 <url> · branch … · commit … · PR #7 <url>", then the ladder's words. */
export function causeRowText(r: CauseRow): string[] {
  const parts: string[] = [];
  if (r.sentry) parts.push(`Sentry ${r.sentry.label}${r.sentry.url ? ` ${r.sentry.url}` : ''}${r.sentryComment ? ` (commented, ${r.sentryComment})` : ''}`);
  if (r.issue) parts.push(`issue #${r.issue.number}${r.issue.url ? ` ${r.issue.url}` : ''}`);
  if (r.branch) parts.push(`branch ${r.branch}`);
  if (r.commit) parts.push(`commit ${r.commit.slice(0, 12)}`);
  if (r.pullRequest) parts.push(`PR #${r.pullRequest.number}${r.pullRequest.url ? ` ${r.pullRequest.url}` : ''}`);
  return [`  ${r.cause}: ${parts.length ? parts.join(' · ') : 'nothing made yet'}`, ...r.ladder.map((l) => `    » ${l}`)];
}
