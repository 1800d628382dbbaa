/**
 * The approvals that runs paused in a shared store wait on, as this window asks a person about
 * them (a notification each, and the status bar's "approval needed"): the runs' saved questions,
 * each named by what it acts on (an issue's title, a file), not by the model's raw arguments.
 * A run running in this window is left out: it asks itself.
 */
import type { RunListing } from '../../store/run-store';
import { describeCall } from '../../transcript/calls';
import { storeApprovalMessage } from './texts';

export interface StoreQuestion {
  /** "<runId>:approval:<callId>": asked once per window. */
  key: string;
  runId: string;
  task: string;
  callId: string;
  tool: string;
  /** What the call acts on: "File issue: <title>", "Patch <path>". */
  title: string;
  /** The model's arguments, as it wrote them (for Show Details). */
  args: string;
  /** The notification's text. */
  message: string;
}

export function storeQuestions(listings: readonly RunListing[], isActive: (runId: string) => boolean): StoreQuestion[] {
  const out: StoreQuestion[] = [];
  for (const l of listings) {
    const s = l.state;
    if (!s || s.phase !== 'paused' || isActive(s.runId)) continue;
    for (const p of s.pending ?? []) {
      if (p.kind !== 'approval') continue;
      const title = describeCall({ id: p.callId, name: p.tool, args: p.args }).title;
      out.push({
        key: `${s.runId}:approval:${p.callId}`,
        runId: s.runId,
        task: s.task,
        callId: p.callId,
        tool: p.tool,
        title,
        args: p.args,
        message: storeApprovalMessage(s.runId, s.task, p.tool, title),
      });
    }
  }
  return out;
}
