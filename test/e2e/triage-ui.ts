// The Durable Triage extension's user-facing contract, as the e2e scenarios drive it:
// exact texts of its commands and notifications, and the flows built from them.
import type { Page } from './playwright';
import { waitFor, WaitAbortedError } from './wait';
import {
  clickNotificationButton,
  errorNotifications,
  hasNotification,
  notificationMessage,
  openNotificationCenter,
  pickQuickItem,
  runCommand,
  waitForNotification,
} from './workbench';

export const EXTENSION_ID = 'durable-triage.durable-triage';
export const LOG_NAME = 'Durable Triage';
export const CMD_START = 'Durable Triage: Start Triage';
export const MODEL_RECORDED = 'Recorded demo';

const ID = '(\\S+?)';
/** "Durable Triage: approve <tool>? <title>" */
export const APPROVAL = new RegExp(`Durable Triage: approve ${ID}\\? `);
/** "Durable Triage: <task> finished: <passed>/<total> checks passed; issues #1, #2 (run <task>…<tail>)." */
export const DONE = new RegExp(`Durable Triage: ${ID} finished: (\\d+)/(\\d+) checks passed.*\\(run ${ID}\\)\\.`);
/** "Durable Triage: run <runId> (<task>) was interrupted at turn <N>. Resume it?" */
export const RESUME_OFFER = new RegExp(`Durable Triage: run ${ID} \\((.+?)\\) was interrupted at turn (\\d+)\\. Resume it\\?`);
/** "Durable Triage: run <runId> is open in another window; it will not be run here." */
export const OPEN_ELSEWHERE = new RegExp(`Durable Triage: run ${ID} is open in another window; it will not be run here\\.`);
/** Start on a task whose run here is done: "Durable Triage: <task> already has a finished run here (<runId>, <time> UTC). Show its result, or start a new run?" */
export const FINISHED_RUN = /Durable Triage: \S+ already has a finished run here \(/;
/** A run paused in a shared store, asked about in an editor on it: "Durable Triage: run <runId> (<task>) waits for your approval of <tool>: <title>" (title: "File issue: …", "Patch <path>") */
export const STORE_APPROVAL = new RegExp(`Durable Triage: run ${ID} \\((.+?)\\) waits for your approval of ${ID}: `);
/** The answer left in a shared store: "Durable Triage: approved; a worker continues run <runId>." */
export const WORKER_CONTINUES = new RegExp(`Durable Triage: approved; a worker continues run ${ID}\\.`);
/** "Durable Triage: files the agent wrote have changed: <paths>." */
export const WORKSPACE_CHANGED = /Durable Triage: files the agent wrote have changed: (.+)\./;

/** Start Triage from the palette: pick the task, then the model. */
export async function startTriage(page: Page, task: string, model = MODEL_RECORDED): Promise<void> {
  await runCommand(page, CMD_START);
  await pickQuickItem(page, task);
  await pickQuickItem(page, model);
}

/** Clicks Approve on the approval notification shown (or about to show); returns its message. */
export async function approveOne(page: Page, timeoutMs = 60_000): Promise<string> {
  const item = await waitForNotification(page, APPROVAL, timeoutMs);
  const message = await notificationMessage(item);
  await clickNotificationButton(page, APPROVAL, 'Approve');
  await waitFor(async () => !(await hasNotification(page, exactly(message))), { what: `the approval "${message}" to close after Approve`, timeoutMs: 15_000 });
  return message;
}

/** runId: the short form the notification shows ("<task>…<tail>"); see sameRun. */
export interface Finished {
  runId: string;
  passed: number;
  total: number;
  message: string;
  approvals: string[];
}

/** True when a full run ID is the one a notification names by its short form "<task>…<tail>". */
export function sameRun(full: string, short: string): boolean {
  const tail = short.split('…').pop() ?? short;
  return full === short || full.endsWith(`-${tail}`);
}

/**
 * Approves every approval notification until the done notification shows. Fails at once
 * on an error notification of the extension.
 */
export async function approveUntilDone(page: Page, timeoutMs = 180_000): Promise<Finished> {
  const approvals: string[] = [];
  const either = new RegExp(`${APPROVAL.source}|${DONE.source}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    let quietSince = Date.now();
    const item = await waitFor(
      async () => {
        const errors = await errorNotifications(page, /Durable Triage/);
        if (errors.length > 0) throw new WaitAbortedError(`the extension showed an error while the run should finish: ${errors.join(' | ')}`);
        if (await hasNotification(page, either)) return waitForNotification(page, either, 5_000);
        // A toast hides after a while; the notification center still lists it.
        if (Date.now() - quietSince > 5_000) {
          quietSince = Date.now();
          await openNotificationCenter(page).catch(() => undefined);
        }
        return undefined;
      },
      { what: `an approval or the done notification (approved so far: ${JSON.stringify(approvals)})`, timeoutMs: Math.max(left, 1), intervalMs: 250 },
    );
    const message = await notificationMessage(item);
    const done = DONE.exec(message);
    if (done) return { runId: done[4], passed: Number(done[2]), total: Number(done[3]), message, approvals };
    approvals.push(await approveOne(page));
  }
}

/** A regex matching text literally. */
export function exactly(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

function statusBarItems(page: Page) {
  return page
    .locator('.part.statusbar .statusbar-item')
    .filter({ visible: true })
    .filter({ hasText: /\bTriage: / });
}

/** Clicks the extension's status bar item while it shows text. */
export async function clickStatusBar(page: Page, text: string): Promise<void> {
  await statusBarItems(page)
    .filter({ hasText: exactly(text) })
    .first()
    .locator('a, .statusbar-item-label')
    .first()
    .click({ timeout: 10_000 });
}

/** The text of the extension's status bar item ("Triage: approval needed", "Triage: turn 3 · $0.05"), or undefined when it is hidden. */
export async function statusBarText(page: Page): Promise<string | undefined> {
  const items = await statusBarItems(page).allInnerTexts();
  return items.length > 0 ? items[0].replace(/\s+/g, ' ').trim() : undefined;
}
