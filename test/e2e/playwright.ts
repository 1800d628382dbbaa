// playwright-core lives in the e2e cache, not in the project's dependencies.
import * as fs from 'node:fs';
import type * as Playwright from 'playwright-core';
import { PLAYWRIGHT_CORE } from './paths';

export type { Browser, BrowserContext, Page, Locator, FrameLocator } from 'playwright-core';

export function loadPlaywright(): typeof Playwright {
  if (!fs.existsSync(PLAYWRIGHT_CORE)) {
    throw new Error(`playwright-core is not installed in ${PLAYWRIGHT_CORE}; run scripts/e2e-setup.sh`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(PLAYWRIGHT_CORE) as typeof Playwright;
}
