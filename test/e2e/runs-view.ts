// The Runs view (the Durable Triage container in the activity bar) as a user sees it: its rows'
// texts (label and description), and expanding a run to see what it waits on.
import type { Locator, Page } from './playwright';
import { runCommand } from './workbench';
import { waitFor } from './wait';

/** The palette command VS Code makes for the view ("Focus on <view name> View", in its container's category). */
export const FOCUS_RUNS_VIEW = 'Durable Triage: Focus on Runs View';

function rows(page: Page): Locator {
  return page.locator('.part.sidebar .pane-body .monaco-list-row').filter({ visible: true });
}

/** Each row's text, "label description" on one line, top to bottom. */
export async function runsViewRows(page: Page): Promise<string[]> {
  return rows(page).evaluateAll((els) =>
    els.map((e) =>
      Array.from(e.querySelectorAll('.label-name, .label-description'))
        .map((x) => (x.textContent ?? '').replace(/\s+/g, ' ').trim())
        .filter((t) => t !== '')
        .join(' '),
    ),
  );
}

/** Shows the Runs view and waits until a row matches text; returns the rows. */
export async function waitForRunsRow(page: Page, text: RegExp, timeoutMs = 30_000): Promise<string[]> {
  await runCommand(page, FOCUS_RUNS_VIEW);
  let shown: string[] = [];
  try {
    await waitFor(async () => (shown = await runsViewRows(page)).some((r) => text.test(r)), {
      what: `a row of the Runs view matching ${text}`,
      timeoutMs,
      intervalMs: 250,
    });
  } catch (e) {
    throw new Error(`${(e as Error).message}; the Runs view shows ${JSON.stringify(shown)}`);
  }
  return shown;
}

/** Expands the collapsed row matching text (its twistie, not the row: a click on a run opens its Run panel). */
export async function expandRunsRow(page: Page, text: RegExp): Promise<void> {
  const at = (await runsViewRows(page)).findIndex((r) => text.test(r));
  if (at < 0) throw new Error(`no row of the Runs view matches ${text}: ${JSON.stringify(await runsViewRows(page))}`);
  const row = rows(page).nth(at);
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
  await waitFor(async () => (await row.getAttribute('aria-expanded')) === 'true', { what: `the Runs view row matching ${text} to expand`, timeoutMs: 10_000 });
}

/** Drags the side bar's edge so it is width pixels wide (the default leaves a run's row truncated). */
export async function widenSideBar(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) throw new Error('the side bar is not shown');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}
