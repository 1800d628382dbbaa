/**
 * The editor on a shared PostgreSQL store: it lists every run of the store (workers' too),
 * re-reads them every few seconds (there is no folder to watch), and asks about each approval
 * a paused run waits on, in a notification (and the status bar says an approval is needed); the
 * answer is left in the store for the worker that continues the run (the editor does not run it).
 * In this window a run it started itself asks as usual.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { RunStore } from '../store/run-store';
import { storeQuestions, type StoreQuestion } from './logic/store-questions';
import { storedApprovalDetails } from './logic/details';
import { APPROVAL_BUTTONS } from './logic/texts';
import { showDetails } from './show-details';
import type { MemoryDocs } from './docs';

/** How often the Runs view re-reads a shared store. */
export const SHARED_POLL_MS = 5000;

/** Records an answer for a worker when the store is shared (true), or does nothing (false: a local store). */
export async function answerForWorker(store: RunStore, runId: string, callId: string, a: 'approve' | 'deny', log: vscode.LogOutputChannel): Promise<boolean> {
  if (store.kind !== 'postgres' || !store.answers) return false;
  const r = await store.answers().put(runId, callId, { kind: 'approval', answer: a }, `${os.userInfo().username} (VS Code)`);
  log.info(`[${runId}] ${callId}: ${a} recorded in ${store.where} (${r})`);
  if (r === 'recorded')
    void vscode.window.showInformationMessage(`Durable Triage: ${a === 'approve' ? 'approved' : 'denied'}; a worker continues run ${runId}.`);
  else if (r === 'answered-before')
    void vscode.window.showWarningMessage(`Durable Triage: that question of run ${runId} was already answered (elsewhere); the first answer stands.`);
  else void vscode.window.showWarningMessage(`Durable Triage: run ${runId} no longer waits on that question.`);
  return true;
}

/** The questions no one answered yet (an answer waits in the store until a worker continues the run). */
async function unanswered(store: RunStore, questions: StoreQuestion[]): Promise<StoreQuestion[]> {
  if (questions.length === 0 || !store.answers) return questions;
  const answers = store.answers();
  const out: StoreQuestion[] = [];
  for (const q of questions) if (!(await answers.get(q.runId, 'approval', q.callId))) out.push(q);
  return out;
}

/**
 * Asks about a question in a notification (a modal dialog when the person asked for it) and
 * leaves the answer for a worker; Show Details opens the call rendered, then asks again.
 */
async function askForWorker(store: () => Promise<RunStore>, q: StoreQuestion, docs: MemoryDocs, log: vscode.LogOutputChannel, modal = false): Promise<void> {
  for (;;) {
    const pick = await vscode.window.showInformationMessage(q.message, { modal }, APPROVAL_BUTTONS.approve, APPROVAL_BUTTONS.deny, APPROVAL_BUTTONS.details);
    if (pick === APPROVAL_BUTTONS.details) {
      await showDetails(storedApprovalDetails(q), docs, q.runId).catch((e: Error) => log.warn(`could not show the details of ${q.callId}: ${e.message}`));
      continue;
    }
    if (pick === APPROVAL_BUTTONS.approve || pick === APPROVAL_BUTTONS.deny)
      await answerForWorker(await store(), q.runId, q.callId, pick === APPROVAL_BUTTONS.approve ? 'approve' : 'deny', log);
    return;
  }
}

/**
 * "Ask Again" (a click on the question in the Runs view, or on the status bar) for a run paused
 * in a shared store: the question in a modal dialog, the answer left for a worker; the window
 * does not take the run over. False when the store is not shared or the run does not wait on it.
 */
export async function askAgainForWorker(store: RunStore, runId: string, callId: string, docs: MemoryDocs, log: vscode.LogOutputChannel): Promise<boolean> {
  if (store.kind !== 'postgres') return false;
  const q = storeQuestions(await store.listRuns(), () => false).find((x) => x.runId === runId && x.callId === callId);
  if (!q) return false;
  await askForWorker(() => Promise.resolve(store), q, docs, log, true);
  return true;
}

/**
 * Polls a shared store: refreshes the view, asks once per question in this window about the
 * approvals paused runs wait on, and reports them all (waiting) for the status bar.
 */
export function watchShared(d: {
  store: () => Promise<RunStore>;
  shared: () => boolean;
  isActive: (runId: string) => boolean;
  changed: () => void;
  waiting: (questions: StoreQuestion[]) => void;
  docs: MemoryDocs;
  log: vscode.LogOutputChannel;
}): vscode.Disposable {
  const asked = new Set<string>();
  let busy = false;
  const tick = async (): Promise<void> => {
    if (busy) return;
    if (!d.shared()) {
      d.waiting([]);
      return;
    }
    busy = true;
    try {
      const store = await d.store();
      const questions = await unanswered(store, storeQuestions(await store.listRuns(), d.isActive));
      d.changed();
      d.waiting(questions);
      for (const q of questions) {
        if (asked.has(q.key)) continue;
        asked.add(q.key);
        void askForWorker(d.store, q, d.docs, d.log).then(undefined, (e: Error) => d.log.error(`answer for ${q.runId}: ${e.message}`));
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
