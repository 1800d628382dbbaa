// Driving the VS Code workbench as a user does: the command palette, quick picks and
// notifications. Selectors are VS Code 1.100's (code-server 4.100.3).
import type { Locator, Page } from './playwright';
import { waitFor } from './wait';

const QUICK_INPUT = '.quick-input-widget';

function exact(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

async function openQuickInput(page: Page): Promise<Locator> {
  const widget = page.locator(QUICK_INPUT);
  const center = page.locator('.command-center-center');
  if (await center.isVisible()) await center.click();
  else await page.keyboard.press('F1');
  try {
    await widget.waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    throw new Error('the command palette (.quick-input-widget) did not open after clicking the command center / pressing F1');
  }
  return widget;
}

/** Waits for a visible quick-pick row whose label is exactly label. */
async function quickRow(page: Page, label: string, timeoutMs: number): Promise<Locator> {
  const row = page
    .locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`)
    .filter({ visible: true })
    .filter({ has: page.locator('.label-name', { hasText: exact(label) }) })
    .first();
  try {
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    const shown = await page
      .locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row .label-name`)
      .allTextContents()
      .catch(() => []);
    throw new Error(`no quick-pick item labelled "${label}" within ${timeoutMs} ms; the list shows: ${JSON.stringify(shown)}`);
  }
  return row;
}

/** Runs a command by its palette title, e.g. "Durable Triage: Start Triage". */
export async function runCommand(page: Page, title: string, timeoutMs = 15_000): Promise<void> {
  const widget = await openQuickInput(page);
  const input = widget.locator('.quick-input-box input');
  await input.fill(`>${title}`);
  const row = await quickRow(page, title, timeoutMs);
  await row.click();
}

/** Picks the item labelled label in the quick pick that is open (or about to open). */
export async function pickQuickItem(page: Page, label: string, timeoutMs = 15_000): Promise<void> {
  const row = await quickRow(page, label, timeoutMs);
  await row.click();
}

/** Visible notifications (toasts, or the notification center's list when it is open). */
function notifications(page: Page, text: RegExp): Locator {
  return page.locator('.notification-list-item').filter({ visible: true }).filter({ hasText: text });
}

/** Opens the notification center (all notifications, also those whose toast has hidden). */
export async function openNotificationCenter(page: Page): Promise<void> {
  if ((await page.locator('.notifications-center').filter({ visible: true }).count()) > 0) return;
  const bell = page.locator('[id="status.notifications"] a, [id="status.notifications"]').first();
  if (await bell.isVisible()) await bell.click();
  else await runCommand(page, 'Notifications: Show Notifications');
  await page.locator('.notifications-center').filter({ visible: true }).waitFor({ timeout: 5_000 });
}

/**
 * Waits for a notification whose text matches text. Toasts hide after a while: when none
 * matches after toastGraceMs, the notification center is opened and searched as well.
 */
export async function waitForNotification(page: Page, text: RegExp, timeoutMs = 30_000, toastGraceMs = 4_000): Promise<Locator> {
  const started = Date.now();
  let centerTried = false;
  return waitFor(
    async () => {
      const found = notifications(page, text);
      if ((await found.count()) > 0) return found.first();
      if (!centerTried && Date.now() - started > toastGraceMs) {
        centerTried = true;
        await openNotificationCenter(page).catch(() => {
          centerTried = false;
        });
      }
      return undefined;
    },
    { what: `a notification matching ${text}`, timeoutMs, intervalMs: 200 },
  ).catch(async (e: Error) => {
    const shown = await page
      .locator('.notification-list-item')
      .filter({ visible: true })
      .allTextContents()
      .catch(() => []);
    throw new Error(`${e.message}; notifications shown: ${JSON.stringify(shown)}`);
  });
}

/** Clicks button (its exact text) on the notification matching text. */
export async function clickNotificationButton(page: Page, text: RegExp, button: string, timeoutMs = 30_000): Promise<void> {
  const item = await waitForNotification(page, text, timeoutMs);
  const btn = item
    .locator('.monaco-button')
    .filter({ hasText: exact(button) })
    .first();
  try {
    await btn.click({ timeout: 5_000 });
  } catch {
    const shown = await item
      .locator('.monaco-button')
      .allTextContents()
      .catch(() => []);
    throw new Error(`the notification matching ${text} has no button "${button}"; it has ${JSON.stringify(shown)}`);
  }
}

/** True if a notification matching text is shown now (toast or open center); no waiting. */
export async function hasNotification(page: Page, text: RegExp): Promise<boolean> {
  return (await notifications(page, text).count()) > 0;
}

/**
 * Waits for a visible diff editor (vscode.diff) or multi-diff editor (vscode.changes) with
 * both sides' text rendered.
 */
export async function waitForDiffEditor(page: Page, timeoutMs = 30_000): Promise<Locator> {
  const diff = page.locator('.monaco-diff-editor, .multiDiffEditor').filter({ visible: true }).first();
  try {
    await diff.waitFor({ state: 'visible', timeout: timeoutMs });
    for (const side of ['.editor.original', '.editor.modified']) {
      await diff.locator(`${side} .view-lines .view-line`).first().waitFor({ state: 'visible', timeout: timeoutMs });
    }
  } catch {
    const tabs = await editorTabs(page).catch(() => []);
    throw new Error(`no diff editor with both sides rendered within ${timeoutMs} ms; open editor tabs: ${JSON.stringify(tabs)}`);
  }
  return diff;
}

/** The labels of the open editor tabs. */
export async function editorTabs(page: Page): Promise<string[]> {
  return (await page.locator('.tabs-container .tab .label-name').allTextContents()).map((t) => t.trim());
}

/** The message text of a notification item (without its source and buttons). */
export async function notificationMessage(item: Locator): Promise<string> {
  return ((await item.locator('.notification-list-item-message').textContent()) ?? '').trim();
}

/** Messages of the error notifications shown now whose text matches text. */
export async function errorNotifications(page: Page, text: RegExp): Promise<string[]> {
  const items = page
    .locator('.notification-list-item')
    .filter({ visible: true })
    .filter({ has: page.locator('.notification-list-item-icon.codicon-error') })
    .filter({ hasText: text });
  const out: string[] = [];
  for (const item of await items.all()) out.push(await notificationMessage(item));
  return out;
}

/**
 * The palette's commands whose titles start with `prefix` (e.g. "Durable Triage: "), once the
 * list shows `mustShow` (so an empty list read too early does not pass for "hidden"); the palette
 * is closed after.
 */
export async function paletteCommands(
  page: Page,
  prefix: string,
  mustShow: string,
  o: { timeoutMs?: number; whileOpen?: () => Promise<unknown> } = {},
): Promise<string[]> {
  const widget = await openQuickInput(page);
  await widget.locator('.quick-input-box input').fill(`>${prefix}`);
  await quickRow(page, mustShow, o.timeoutMs ?? 15_000);
  const labels = await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row .label-name`).allTextContents();
  await o.whileOpen?.();
  await page.keyboard.press('Escape');
  return labels.map((l) => l.trim());
}

/** The text of each row of the quick pick that is open (label, description, detail), once it shows a row (one labelled `label`, when given). */
export async function quickPickRows(page: Page, label?: string, timeoutMs = 15_000): Promise<string[]> {
  if (label !== undefined) await quickRow(page, label, timeoutMs);
  else
    await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`).filter({ visible: true }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  const rows = await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`).filter({ visible: true }).allInnerTexts();
  return rows.map((t) => t.replace(/\s+/g, ' ').trim());
}
