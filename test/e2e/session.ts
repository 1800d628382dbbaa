// One scenario's editor: a code-server of its own, a workspace copy, and its windows
// (pages); finds, kills and waits for their extension hosts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findFiles, saveFailureArtifacts, screenshot } from './artifacts';
import { openWindow, waitForWorkbench } from './browser';
import { CLIENT_DISCONNECTED, launchedExtensionHosts, type CodeServer } from './code-server';
import type { Browser, Page } from './playwright';
import { extensionHostPids, isAlive } from './proc';
import { waitFor, WaitAbortedError } from './wait';
import { updateWorkspaceSettings } from './workspace';

const EXTENSION_HOST_TIMEOUT_MS = 60_000;

export interface SessionOptions {
  /** Names the temp folder and test-artifacts/<scenario>/. */
  scenario: string;
  /** The folder copied to be the opened workspace, e.g. samples/<task>/workspace. */
  workspace: string;
  /** Written to the copy's .vscode/settings.json. */
  workspaceSettings?: Record<string, unknown>;
  /** Merged over the quiet first-run user settings. */
  userSettings?: Record<string, unknown>;
  /** The user setting that gets the session's state folder. */
  stateDirectorySetting?: string;
  /** The LogOutputChannel whose log file is copied on failure. */
  extensionLogName?: string;
  /** Added to code-server's environment (its extension hosts inherit it). */
  serverEnv?: Record<string, string>;
  /** More code-server arguments. */
  serverArgs?: string[];
  /** Open the first window at start (default true). */
  openFirstWindow?: boolean;
}

export interface EditorWindow {
  name: string;
  page: Page;
  console: string[];
}

export class E2eSession {
  readonly windows: EditorWindow[] = [];

  constructor(
    private readonly browser: Browser,
    readonly opts: SessionOptions,
    /** The session's temp folder: server/, workspace/, state/. */
    readonly dir: string,
    readonly workspace: string,
    readonly stateDir: string,
    readonly server: CodeServer,
  ) {}

  /** The first window. */
  get page(): Page {
    if (this.windows.length === 0) throw new Error('no window is open; call openWindow() first');
    return this.windows[0].page;
  }

  /**
   * Opens an editor window on the workspace (the second one is a second page of the same
   * browser profile) and returns it once the workbench and its extension host are up.
   */
  async openWindow(): Promise<Page> {
    const offset = this.server.output().length;
    const first = this.windows[0];
    const page = await openWindow(first ? first.page.context() : this.browser, this.server.url, this.workspace);
    const win: EditorWindow = { name: `window${this.windows.length + 1}`, page, console: [] };
    page.on('console', (m) => {
      if (win.console.length < 5000) win.console.push(`[${m.type()}] ${m.text()}`);
    });
    page.on('pageerror', (e) => {
      win.console.push(`[pageerror] ${e.message}`);
    });
    this.windows.push(win);
    await this.waitForLaunchedExtensionHost(offset);
    return page;
  }

  /**
   * The extension host launched for a window that connected after output offset (after its
   * old connection went away when afterDisconnect): the first launch code-server logs then,
   * once that process is up.
   */
  private async waitForLaunchedExtensionHost(offset: number, afterDisconnect = false): Promise<number> {
    const pid = await waitFor(
      () => {
        const tail = this.server.output().slice(offset);
        const pid = launchedExtensionHosts(tail, afterDisconnect ? CLIENT_DISCONNECTED : undefined)[0];
        return pid !== undefined && this.extensionHostPids().includes(pid) ? pid : undefined;
      },
      {
        what: `code-server to launch the window's extension host (--type=extensionHost under pid ${this.server.pid})`,
        timeoutMs: EXTENSION_HOST_TIMEOUT_MS,
      },
    );
    await this.waitForExtensionHostReady(pid);
    return pid;
  }

  /** Extension host pids under this session's code-server, oldest first. */
  extensionHostPids(): number[] {
    return extensionHostPids(this.server.pid);
  }

  /** The only extension host (one window open); throws if there are none or several. */
  extensionHostPid(): number {
    const pids = this.extensionHostPids();
    if (pids.length !== 1) throw new Error(`expected one extension host under code-server ${this.server.pid}, found ${JSON.stringify(pids)}`);
    return pids[0];
  }

  /**
   * Waits for an extension host that is not among before; returns its pid. After an
   * extension host dies, the workbench starts a new one in the same window by itself.
   */
  async waitForNewExtensionHost(before: number[]): Promise<number> {
    const pid = await waitFor(() => this.extensionHostPids().find((p) => !before.includes(p)), {
      what: `a new extension host process (--type=extensionHost) under code-server ${this.server.pid}`,
      timeoutMs: EXTENSION_HOST_TIMEOUT_MS,
    });
    await this.waitForExtensionHostReady(pid);
    return pid;
  }

  /**
   * True once the extension host pid has finished starting: its remoteexthost.log says
   * "Eager extensions activated" (onStartupFinished extensions activate right after).
   */
  extensionHostReady(pid: number): boolean {
    for (const f of findFiles(path.join(this.server.userDataDir, 'logs'), (n) => n === 'remoteexthost.log')) {
      const text = fs.readFileSync(f, 'utf8');
      if (text.includes(`Extension host with pid ${pid} started`)) return text.includes('Eager extensions activated');
    }
    return false;
  }

  /** Waits until the extension host pid has finished starting (see extensionHostReady). */
  async waitForExtensionHostReady(pid: number): Promise<void> {
    await waitFor(
      () => {
        if (!isAlive(pid)) throw new WaitAbortedError(`extension host ${pid} exited while starting`);
        return this.extensionHostReady(pid);
      },
      { what: `extension host ${pid} to finish starting ("Eager extensions activated" in its remoteexthost.log)`, timeoutMs: EXTENSION_HOST_TIMEOUT_MS },
    );
  }

  /** Waits until pid has exited. */
  async waitForExit(pid: number, what = `process ${pid}`, timeoutMs = 60_000): Promise<void> {
    await waitFor(() => !isAlive(pid), { what: `${what} to exit`, timeoutMs });
  }

  /** SIGKILLs the extension host (the only one, or pid) and waits until it is gone. */
  async killExtensionHost(pid = this.extensionHostPid()): Promise<number> {
    process.kill(pid, 'SIGKILL');
    await this.waitForExit(pid, `extension host ${pid} (after SIGKILL)`, 10_000);
    return pid;
  }

  /**
   * Reloads a window as "Developer: Reload Window" does: waits for the workbench, for a new
   * extension host, and for the window's old extension host (if it was alive) to exit.
   * After an extension host crash, the workbench restarts it by itself: wait for that
   * (waitForNewExtensionHost) before reloading.
   * Returns the new extension host's pid.
   */
  async reload(page = this.page): Promise<number> {
    // An extension host still starting when its window reloads is orphaned by code-server
    // (it waits for a reconnection that never comes), so let every one finish starting first.
    // One that exits meanwhile needs no waiting for (CI once saw the host the workbench had
    // started after a crash exit while this waited): the list is read again at each poll.
    await waitFor(
      () => {
        const starting = this.extensionHostPids().filter((pid) => !this.extensionHostReady(pid));
        if (starting.length > 0) throw new Error(`still starting: ${JSON.stringify(starting)}`);
        return true;
      },
      {
        what: `every extension host under code-server ${this.server.pid} to finish starting before the reload`,
        timeoutMs: EXTENSION_HOST_TIMEOUT_MS,
      },
    );
    const offset = this.server.output().length;
    await page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
    await waitForWorkbench(page);
    const fresh = await this.waitForLaunchedExtensionHost(offset, true);
    await waitFor(() => this.extensionHostPids().length <= this.windows.length, {
      what: `the reloaded window's old extension host to exit (extension hosts now ${JSON.stringify(this.extensionHostPids())} for ${this.windows.length} window(s))`,
      timeoutMs: EXTENSION_HOST_TIMEOUT_MS,
    });
    return fresh;
  }

  /** Saves test-artifacts/<name>.png of page (default: the first window). */
  async screenshot(name: string, page = this.page): Promise<string> {
    return screenshot(page, name);
  }

  /** Merges settings into the workspace copy's .vscode/settings.json (undefined removes a key). */
  updateWorkspaceSettings(settings: Record<string, unknown>): void {
    updateWorkspaceSettings(this.workspace, settings);
  }

  /** Leaves artifacts for a failure, then closes windows and stops code-server. */
  async finish(error?: unknown): Promise<string | undefined> {
    let artifacts: string | undefined;
    if (error !== undefined) {
      artifacts = await saveFailureArtifacts({
        scenario: this.opts.scenario,
        error,
        pages: this.windows,
        userDataDir: this.server.userDataDir,
        serverOutput: this.server.output(),
        extensionLogName: this.opts.extensionLogName ?? 'Durable Triage',
      }).catch((e: Error) => `(could not save artifacts: ${e.message})`);
    }
    const contexts = new Set(this.windows.map((w) => w.page.context()));
    for (const c of contexts) await c.close().catch(() => undefined);
    await this.server.stop();
    return artifacts;
  }
}
