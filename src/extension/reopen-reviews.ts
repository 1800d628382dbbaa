/**
 * After a reload the editor restores a Review Changes tab with its title but none of its files
 * ("No Changed Files"): each such tab is closed and the run's changes are opened again; a
 * restored Show Diff of changed files, or a review of a run no longer here, is only closed.
 */
import * as vscode from 'vscode';
import type { RunStore } from '../store/run-store';
import { restoredTab } from './logic/restored-review';

export async function reopenRestoredReviews(d: {
  store: () => Promise<RunStore>;
  reviewChanges: (runId: string) => Promise<void>;
  log: vscode.LogOutputChannel;
}): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  // The multi-file changes editor has no tab input type in this API version: it is none of the known ones.
  const known = [
    vscode.TabInputText,
    vscode.TabInputTextDiff,
    vscode.TabInputWebview,
    vscode.TabInputCustom,
    vscode.TabInputNotebook,
    vscode.TabInputNotebookDiff,
    vscode.TabInputTerminal,
  ];
  const candidates = tabs.filter((t) => !known.some((k) => t.input instanceof k) && restoredTab(t.label, []) !== undefined);
  if (candidates.length === 0) return;
  const runs = (await (await d.store()).listRuns()).map((l) => ({ runId: l.runId, ...(l.state ? { task: l.state.task } : {}) }));
  for (const tab of candidates) {
    const what = restoredTab(tab.label, runs);
    await vscode.window.tabGroups.close(tab, true);
    if (what?.kind === 'review') {
      d.log.info(`reopening Review Changes of ${what.runId}: the editor restored its tab without its files`);
      await d.reviewChanges(what.runId);
    }
  }
}
