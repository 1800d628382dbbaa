/**
 * The editor on a shared PostgreSQL store: it lists every run of the store (workers' too),
 * re-reads them every few seconds (there is no folder to watch), and asks about each approval
 * a paused run waits on, in a notification; the answer is left in the store for the worker that
 * continues the run (the editor does not run it). In this window a run it started itself asks
 * as usual.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { RunStore } from '../durable/run-store';
import * as core from './core';

/** How often the Runs view re-reads a shared store. */
export const SHARED_POLL_MS = 5000;

/** Records an answer for a worker when the store is shared (true), or does nothing (false: a local store). */
export async function answerForWorker(store: RunStore, runId: string, callId: string, a: 'approve' | 'deny', log: vscode.LogOutputChannel): Promise<boolean> {
  if (store.kind !== 'postgres') return false;
  const { PgAnswers } = core.answers();
  const { PgRunStore } = core.pgStore();
  if (!(store instanceof PgRunStore)) return false;
  const r = await new PgAnswers(store.db).put(runId, callId, { kind: 'approval', answer: a }, `${os.userInfo().username} (VS Code)`);
  log.info(`[${runId}] ${callId}: ${a} recorded in ${store.where} (${r})`);
  if (r === 'recorded') void vscode.window.showInformationMessage(`Durable Triage: ${a === 'approve' ? 'approved' : 'denied'}; a worker continues run ${runId}.`);
  else if (r === 'answered-before') void vscode.window.showWarningMessage(`Durable Triage: that question of run ${runId} was already answered (elsewhere); the first answer stands.`);
  else void vscode.window.showWarningMessage(`Durable Triage: run ${runId} no longer waits on that question.`);
  return true;
}

/** Polls a shared store: refreshes the view and asks, once per question in this window, about waiting approvals. */
export function watchShared(d: {
  store: () => Promise<RunStore>;
  shared: () => boolean;
  isActive: (runId: string) => boolean;
  changed: () => void;
  log: vscode.LogOutputChannel;
}): vscode.Disposable {
  const asked = new Set<string>();
  let busy = false;
  const tick = async (): Promise<void> => {
    if (busy || !d.shared()) return;
    busy = true;
    try {
      const store = await d.store();
      const runs = await store.listRuns();
      d.changed();
      for (const l of runs) {
        const s = l.state;
        if (!s || s.phase !== 'paused' || d.isActive(s.runId)) continue;
        for (const p of s.pending ?? []) {
          const key = `${s.runId}:${p.kind}:${p.callId}`;
          if (p.kind !== 'approval' || asked.has(key)) continue;
          asked.add(key);
          void vscode.window
            .showInformationMessage(`Durable Triage: run ${s.runId} (${s.task}) waits for your approval of ${p.tool}: ${p.args.slice(0, 300)}`, 'Approve', 'Deny')
            .then(async (pick) => {
              if (pick === 'Approve' || pick === 'Deny') await answerForWorker(await d.store(), s.runId, p.callId, pick === 'Approve' ? 'approve' : 'deny', d.log);
            })
            .then(undefined, (e: Error) => d.log.error(`answer for ${s.runId}: ${e.message}`));
        }
      }
    } catch (e) {
      d.log.warn(`could not read the shared store: ${(e as Error).message}`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), SHARED_POLL_MS);
  void tick();
  return { dispose: () => clearInterval(timer) };
}
