/**
 * The Approve / Deny / Show Question picker's rows: the questions asked in this window, else the
 * ones saved in this workspace's paused runs. A saved question of a run open in another window
 * (or a `triage` process) cannot be answered here: it is listed as asked there, and picking it
 * says where to answer it instead of doing nothing.
 */
import { noLinks } from './no-links';
import { shortRunId } from './run-rows';
import { PREFIX } from './texts';

export interface ApprovalChoice {
  runId: string;
  callId: string;
  tool: string;
  kind: 'approval' | 'ladder';
  title: string;
  /** The run is open in another window or process: its question is asked there. */
  elsewhere: boolean;
}

/** A question asked in this window now. */
export interface AskedHere {
  runId: string;
  callId: string;
  tool: string;
  kind: string;
  title?: string;
}

/** A run listed in the store, with its saved questions. */
export interface SavedRun {
  runId: string;
  /** Open (locked) by a live process: this window's own runs are active here, so this is another window or the CLI. */
  locked: boolean;
  pending: { callId: string; tool: string; kind: string; title: string }[];
}

/**
 * The choices: the questions asked here when there are any (the ones this window can answer at
 * once); else every saved question, those of runs open elsewhere marked `elsewhere` and listed last.
 */
export function approvalChoices(asked: readonly AskedHere[], saved: readonly SavedRun[], ladderToo: boolean): ApprovalChoice[] {
  const wanted = (k: string): k is 'approval' | 'ladder' => k === 'approval' || (ladderToo && k === 'ladder');
  const here = asked
    .filter((q) => wanted(q.kind))
    .map((q) => ({ runId: q.runId, callId: q.callId, tool: q.tool, kind: q.kind as 'approval' | 'ladder', title: q.title ?? q.tool, elsewhere: false }));
  if (here.length > 0) return here;
  const all = saved.flatMap((r) =>
    r.pending
      .filter((p) => wanted(p.kind))
      .map((p) => ({ runId: r.runId, callId: p.callId, tool: p.tool, kind: p.kind as 'approval' | 'ladder', title: p.title, elsewhere: r.locked })),
  );
  return [...all.filter((c) => !c.elsewhere), ...all.filter((c) => c.elsewhere)];
}

/** The picker row's words for a choice. */
export function approvalChoiceRow(c: ApprovalChoice): { label: string; description: string; detail: string } {
  const asks = c.kind === 'approval' ? `approve ${c.tool}?` : `did ${c.tool} happen?`;
  return {
    label: c.title,
    description: c.elsewhere ? `${asks} · asked in another window` : asks,
    detail: c.elsewhere ? `run ${shortRunId(c.runId)} is open in another window or a triage process: answer it there` : `run ${shortRunId(c.runId)}`,
  };
}

/** What picking a question asked elsewhere says: where it is asked, and that nothing was answered. */
export function askedElsewhereMessage(c: ApprovalChoice): string {
  return noLinks(
    `${PREFIX}: "${c.title}" is asked in the window (or triage process) that has run ${c.runId} open; answer it there. Nothing was answered here.`,
  );
}
