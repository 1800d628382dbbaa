// Where the real-editor tests find things: the repo, the e2e cache (code-server and
// playwright-core, installed by scripts/e2e-setup.sh), and the artifacts folder.
import * as path from 'node:path';

/** The repository root (this file compiles to out/e2e/paths.js). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const E2E_CACHE = path.join(REPO_ROOT, '.cache', 'e2e');
export const CODE_SERVER_ENTRY = path.join(E2E_CACHE, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const PLAYWRIGHT_CORE = path.join(E2E_CACHE, 'node_modules', 'playwright-core');
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots and logs for whoever reads CI output (git-ignored). */
export const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS_DIR ?? path.join(REPO_ROOT, 'test-artifacts');
/** The packaged extension `npm run package` builds (E2E_VSIX overrides). */
export const DEFAULT_VSIX = process.env.E2E_VSIX ?? path.join(REPO_ROOT, 'dist', 'durable-triage.vsix');
