// The real-editor test harness: one browser and one installed .vsix per suite; per scenario
// a fresh code-server, a copy of a sample workspace, and editor windows (pages) on it.
// Everything is torn down at the end; every scenario leaves a screenshot of its last screen in
// test-artifacts/<scenario>/end.png, and a failed one keeps its temp folder and leaves
// screenshots and logs there.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { installExtension, startCodeServer } from './code-server';
import { DEFAULT_VSIX } from './paths';
import { timedSpan } from './spans';
import type { Browser } from './playwright';
import { E2eSession, type SessionOptions } from './session';
import { copyWorkspace, updateWorkspaceSettings } from './workspace';

export {
  runCommand,
  pickQuickItem,
  waitForNotification,
  clickNotificationButton,
  hasNotification,
  waitForDiffEditor,
  editorTabs,
  notificationMessage,
  errorNotifications,
  paletteCommands,
  quickPickRows,
} from './workbench';
export { screenshot } from './artifacts';
export { triageJson } from './cli';
export { waitFor, WaitAbortedError } from './wait';
export { isAlive } from './proc';
export { updateWorkspaceSettings, readWorkspaceSettings } from './workspace';
export { E2eSession, type SessionOptions } from './session';

export interface SuiteOptions {
  /** The .vsix to install; default dist/durable-triage.vsix. */
  vsix?: string;
  /** More .vsix files installed beside it (e.g. a sign-in stand-in). */
  extraVsix?: string[];
}

export class E2eSuite {
  private failed = false;

  private constructor(
    readonly root: string,
    readonly extensionsDir: string,
    private readonly browser: Browser,
  ) {}

  /** Makes a temp root, installs the .vsix into a shared extensions folder, launches Chromium. */
  static async start(opts: SuiteOptions = {}): Promise<E2eSuite> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-triage-e2e-'));
    try {
      const extensionsDir = path.join(root, 'extensions');
      for (const vsix of [opts.vsix ?? DEFAULT_VSIX, ...(opts.extraVsix ?? [])]) {
        await timedSpan('extension install', path.basename(vsix), () => installExtension(vsix, path.join(root, 'installer'), extensionsDir));
      }
      const browser = await timedSpan('browser start', 'chromium', () => launchBrowser(path.join(root, 'browser-home')));
      return new E2eSuite(root, extensionsDir, browser);
    } catch (e) {
      fs.rmSync(root, { recursive: true, force: true });
      throw e;
    }
  }

  /** A fresh code-server and workspace copy, with the first window open (unless told not to). */
  async session(opts: SessionOptions): Promise<E2eSession> {
    const dir = path.join(this.root, opts.scenario);
    fs.mkdirSync(dir, { recursive: false });
    const workspace = copyWorkspace(opts.workspace, path.join(dir, 'workspace'));
    const stateDir = path.join(dir, 'state');
    fs.mkdirSync(stateDir);
    // The state folder is a user setting: a workspace value of it is ignored (a run can write the workspace's settings).
    if (opts.workspaceSettings) updateWorkspaceSettings(workspace, opts.workspaceSettings);
    const userSettings = { [opts.stateDirectorySetting ?? 'durableTriage.stateDirectory']: stateDir, ...opts.userSettings };
    const server = await timedSpan('code-server start', opts.scenario, () =>
      startCodeServer({
        baseDir: path.join(dir, 'server'),
        extensionsDir: this.extensionsDir,
        userSettings,
        ...(opts.serverEnv ? { env: opts.serverEnv } : {}),
        ...(opts.serverArgs ? { extraArgs: opts.serverArgs } : {}),
      }),
    );
    const session = new E2eSession(this.browser, opts, dir, workspace, stateDir, server);
    if (opts.openFirstWindow !== false) {
      try {
        await session.openWindow();
      } catch (e) {
        await session.finish(e);
        this.failed = true;
        throw e;
      }
    }
    return session;
  }

  /**
   * Runs one scenario in its own session. On failure: artifacts in test-artifacts/<scenario>/,
   * the temp folder kept (its path added to the error), and the error rethrown.
   */
  async run(opts: SessionOptions, body: (s: E2eSession) => Promise<void>): Promise<void> {
    const s = await this.session(opts);
    try {
      await body(s);
    } catch (e) {
      this.failed = true;
      const artifacts = await s.finish(e);
      if (e instanceof Error) e.message += `\n  artifacts: ${artifacts}\n  temp folder kept: ${s.dir}`;
      throw e;
    }
    // On success too: the last screen, for a person to look at the UI without running it.
    if (s.windows.length > 0) await s.screenshot(`${opts.scenario}/end`).catch(() => undefined);
    await s.finish();
    fs.rmSync(s.dir, { recursive: true, force: true });
  }

  /** Closes the browser; removes the temp root unless a scenario failed. */
  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    if (!this.failed) fs.rmSync(this.root, { recursive: true, force: true });
  }
}
