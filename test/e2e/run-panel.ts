// The Run panel (a webview) as a user sees it: the transcript's entries, the header, the
// inline Approve/Deny, the toolbar's buttons; and the editor's modal dialogs.
import type { FrameLocator, Locator, Page } from './playwright';
import { waitFor } from './wait';

/** The visible Run panel's document (the webview's inner frame). */
export function runPanel(page: Page): FrameLocator {
  return page.locator('iframe.webview.ready').filter({ visible: true }).first().contentFrame().locator('#active-frame').contentFrame();
}

/** Waits until the Run panel shows a run (its header), and returns its document. */
export async function waitForRunPanel(page: Page, timeoutMs = 60_000): Promise<FrameLocator> {
  const panel = runPanel(page);
  try {
    await panel.locator('header h1').waitFor({ state: 'visible', timeout: timeoutMs });
  } catch (e) {
    throw new Error(`the Run panel did not show a run within ${timeoutMs} ms: ${(e as Error).message}`);
  }
  return panel;
}

/** The text of each transcript entry, in order. */
export async function panelEntries(page: Page): Promise<string[]> {
  return (await runPanel(page).locator('.transcript > section').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** The titles of the history lines (restarts, stops…). */
export async function panelHistory(page: Page): Promise<string[]> {
  return (await runPanel(page).locator('.transcript > section.history .history-title').allInnerTexts()).map((t) => t.trim());
}

/** Clicks a toolbar or inline button of the Run panel by its text. */
export async function clickPanelButton(page: Page, text: string | RegExp, within = 'body'): Promise<void> {
  const b = runPanel(page).locator(`${within} button`).filter({ hasText: text }).first();
  await b.waitFor({ state: 'visible', timeout: 30_000 });
  await b.click();
}

/** Scrolls the Run panel to an element (e.g. the restart marker) so a screenshot shows it. */
export async function scrollPanelTo(page: Page, selector: string): Promise<Locator> {
  const el = runPanel(page).locator(selector).first();
  // The panel re-renders as the run's events arrive: an element met in the middle of one is
  // detached ("not attached to the DOM"), so the scroll is tried again on the element found anew.
  await waitFor(
    async () => {
      await el.scrollIntoViewIfNeeded({ timeout: 2_000 });
      return true;
    },
    { what: `the Run panel's ${selector} scrolled into view`, timeoutMs: 30_000, intervalMs: 250 },
  );
  return el;
}

/** Waits for a modal dialog of the editor whose text matches, and clicks its button. */
export async function clickDialogButton(page: Page, text: RegExp, button: string, timeoutMs = 30_000): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box').filter({ visible: true }).filter({ hasText: text }).first();
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  const message = (await dialog.innerText()).replace(/\s+/g, ' ');
  await dialog
    .locator('.dialog-buttons .monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${button.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) })
    .first()
    .click();
  await waitFor(async () => !(await dialog.isVisible()), { what: `the dialog "${message.slice(0, 60)}" to close`, timeoutMs: 10_000 });
  return message;
}

/** The labels of the editor's Run panel tabs ("Run: <task>…<tail>", maybe " (waiting for you)"), in every editor group. */
export async function runTabs(page: Page): Promise<string[]> {
  return (await page.locator('.tabs-container .tab').filter({ hasText: /Run: / }).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** Waits until exactly one Run panel tab is open (a second one, or one left by a stopped extension host, fails it). */
export async function waitForOneRunTab(page: Page, timeoutMs = 30_000): Promise<string> {
  let last: string[] = [];
  await waitFor(
    async () => {
      last = await runTabs(page);
      return last.length === 1;
    },
    { what: `exactly one Run panel tab (open: ${JSON.stringify(last)})`, timeoutMs, intervalMs: 250 },
  ).catch((e: Error) => {
    throw new Error(`${e.message}; tabs: ${JSON.stringify(last)}`);
  });
  return last[0];
}

/** Scrolls the Run panel to `y` as a person would, and gives its script time to save the place (it saves 200 ms after a scroll). */
export async function scrollPanelToY(page: Page, y: number): Promise<number> {
  const at = await runPanel(page)
    .locator('body')
    .evaluate((_, to) => {
      // A person's scroll starts with the wheel (the panel stops holding the place it opened at).
      window.dispatchEvent(new WheelEvent('wheel', { deltaY: -100 }));
      window.scrollTo(0, to);
      return window.scrollY;
    }, y);
  await page.waitForTimeout(800);
  return at;
}

/** Where the waiting call's card is against the sticky header and the panel's height (CSS pixels). */
export async function waitingCallPlace(page: Page): Promise<{ cardTop: number; headerBottom: number; height: number; scrollY: number } | undefined> {
  return runPanel(page)
    .locator('body')
    .evaluate(() => {
      const card = document.querySelector('section.call.status-waiting');
      const header = document.querySelector('header');
      if (!card || !header) return undefined;
      return {
        cardTop: card.getBoundingClientRect().top,
        headerBottom: header.getBoundingClientRect().bottom,
        height: window.innerHeight,
        scrollY: window.scrollY,
      };
    });
}

/** The sticky header's height (with the question bar in it) and the panel's height (CSS pixels). */
export async function headerShare(page: Page): Promise<{ header: number; questions: number; height: number }> {
  return runPanel(page)
    .locator('body')
    .evaluate(() => ({
      header: document.querySelector('header')?.getBoundingClientRect().height ?? 0,
      questions: document.querySelector('section.questions')?.getBoundingClientRect().height ?? 0,
      height: window.innerHeight,
    }));
}
