/**
 * The crash groups as the crash-folder prompt lists them, capped: the prompt is sent again with
 * every turn, and a folder of 100,000 reports listed in full made a 1.8 MB one. At most
 * PROMPT_CAPS.groups groups are listed (the ones with the most reports, in their saved order),
 * each with at most PROMPT_CAPS.reportsPerGroup report paths and its signature cut to
 * PROMPT_CAPS.signatureChars, and the whole list stays within PROMPT_CAPS.totalBytes. What was
 * cut is said in the list: "(and 9,990 more)" after a group's reports, and a last line with the
 * reports and groups not shown.
 */

export interface ListedGroup {
  cause: string;
  signature: string;
  reports?: readonly string[];
}

export interface PromptCaps {
  groups: number;
  reportsPerGroup: number;
  signatureChars: number;
  /** UTF-8 bytes of the whole list, the last line included. */
  totalBytes: number;
}

export const PROMPT_CAPS: Readonly<PromptCaps> = { groups: 40, reportsPerGroup: 10, signatureChars: 300, totalBytes: 16_000 };

/** Room kept for the last line (what was not shown). */
const SUMMARY_ROOM = 400;

export function crashGroupList(groups: readonly ListedGroup[], caps: Readonly<PromptCaps> = PROMPT_CAPS): string {
  const sizes = groups.map((g) => g.reports?.length ?? 0);
  const chosen = new Set(
    groups
      .map((_, i) => i)
      .sort((a, b) => sizes[b] - sizes[a] || a - b)
      .slice(0, caps.groups),
  );
  const budget = caps.totalBytes - SUMMARY_ROOM;
  const lines: string[] = [];
  let bytes = 0;
  const listed = new Set<number>();
  let cutInListed = 0;
  let listedWithCut = 0;
  for (let i = 0; i < groups.length; i++) {
    if (!chosen.has(i)) continue;
    const g = groups[i];
    const head = `- cause "${g.cause}": ${cut(g.signature, caps.signatureChars)}\n  reports: `;
    if (bytes + byteLength(head) > budget) break;
    let entry = head;
    const reports = g.reports ?? [];
    let shown = 0;
    for (const r of reports) {
      const more = `${shown === 0 ? '' : ', '}${r}`;
      if (shown === caps.reportsPerGroup || bytes + byteLength(entry + more) + 30 > budget) break;
      entry += more;
      shown++;
    }
    if (shown < reports.length) {
      entry += `${shown === 0 ? '' : ' '}(and ${count(reports.length - shown)} more)`;
      cutInListed += reports.length - shown;
      listedWithCut++;
    }
    lines.push(entry);
    bytes += byteLength(entry) + 1;
    listed.add(i);
  }
  const unlisted = groups.map((_, i) => i).filter((i) => !listed.has(i));
  const unlistedReports = unlisted.reduce((n, i) => n + sizes[i], 0);
  const hidden = cutInListed + unlistedReports;
  if (hidden > 0 || unlisted.length > 0) {
    const total = sizes.reduce((a, b) => a + b, 0);
    const withCut = unlisted.length + listedWithCut;
    lines.push(
      `… ${count(hidden)} more report${hidden === 1 ? '' : 's'} in ${count(withCut)} group${withCut === 1 ? '' : 's'} not shown` +
        (unlisted.length > 0 ? `, ${count(unlisted.length)} of those group${unlisted.length === 1 ? '' : 's'} not listed at all` : '') +
        ` (${count(total)} reports in ${count(groups.length)} groups in all; this list is cut to keep the prompt small: triage the groups listed).`,
    );
  }
  return lines.join('\n');
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
