// Debian's Chromium, headless, driven by playwright-core; a page per editor window.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHROMIUM } from './paths';
import { loadPlaywright, type Browser, type BrowserContext, type Page } from './playwright';

/** Flags that work as root on a machine with no network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Launches Chromium; homeDir takes what it would write under ~/.config and ~/.cache (crash reports). */
export async function launchBrowser(homeDir: string): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing; run scripts/e2e-setup.sh (apt-get install chromium)`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.XDG_CONFIG_HOME = path.join(homeDir, 'config');
  env.XDG_CACHE_HOME = path.join(homeDir, 'cache');
  return loadPlaywright().chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, env, timeout: 60_000 });
}

export function workbenchUrl(serverUrl: string, folder: string): string {
  return `${serverUrl}/?folder=${encodeURIComponent(folder)}`;
}

/**
 * A new editor window on folder: a new page in context (a second tab of the same browser
 * profile), or in a fresh context when given the browser. Waits for the workbench.
 */
export async function openWindow(target: Browser | BrowserContext, serverUrl: string, folder: string): Promise<Page> {
  const context = 'newContext' in target ? await target.newContext({ viewport: { width: 1400, height: 900 } }) : target;
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(workbenchUrl(serverUrl, folder), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await waitForWorkbench(page);
  return page;
}

export async function waitForWorkbench(page: Page): Promise<void> {
  try {
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  } catch (e) {
    throw new Error(`the VS Code workbench (.monaco-workbench) did not appear at ${page.url()}: ${(e as Error).message}`);
  }
}
