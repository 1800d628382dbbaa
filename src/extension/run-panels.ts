/**
 * The Run panel: one webview per run, showing its transcript (built by the core from the saved
 * state and the event record), live while the run goes on here, and the same after a reload
 * (the panel is restored by its serializer and re-renders from disk). Approve / Deny inline,
 * a file's diff, Review Changes, Undo, Cancel and Resume are messages to the extension.
 *
 * No retainContextWhenHidden: a hidden panel re-renders from the saved run when shown again.
 */
import * as vscode from 'vscode';
import { FromPanelSchema, PANEL_VIEW_TYPE, type FromPanel, type PanelCommand, type PanelState, type PanelView, type ToPanel } from '../webview/protocol';
import { panelHtml } from './logic/panel-html';
import { deletedRunPanelText } from './logic/texts';
import { panelTitle, shortRunId } from './logic/run-rows';
import { PanelRegistry, strayTabs, type PanelOrigin } from './logic/panel-registry';
import * as core from './lazy-modules';
import type { RunStore } from '../store/run-store';

export interface RunPanelsDeps {
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
  stateDir: () => string;
  /** The run store this window works on (a shared PostgreSQL store, or the state folder's). */
  store: () => Promise<RunStore>;
  isActive: (runId: string) => boolean;
  activity: (runId: string) => string | undefined;
  answer: (runId: string, callId: string, a: 'approve' | 'deny') => Promise<void>;
  ask: (runId: string, callId: string) => Promise<void>;
  diff: (runId: string, path: string) => Promise<void>;
  command: (command: PanelCommand, runId: string) => Promise<void>;
}

interface Open {
  panel: vscode.WebviewPanel;
  timer?: NodeJS.Timeout;
  ready: boolean;
  /** Restored after a reload and not yet shown: its first view says so (it opens at the question or the end). */
  restored?: boolean;
}

const REFRESH_MS = 200;

export class RunPanels implements vscode.Disposable {
  private readonly open = new PanelRegistry<Open>();
  private readonly opening = new Map<string, Promise<void>>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly d: RunPanelsDeps) {
    this.subs.push(
      vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          const runId = (state as PanelState | undefined)?.runId;
          if (typeof runId !== 'string') {
            panel.dispose();
            return;
          }
          this.adopt(runId, panel, 'restored');
        },
      }),
    );
  }

  /** Opens (or reveals) the run's panel. */
  show(runId: string, o: { preserveFocus?: boolean } = {}): void {
    const existing = this.open.get(runId);
    if (existing) {
      existing.panel.reveal(undefined, o.preserveFocus);
      this.refresh(runId);
      return;
    }
    // One opening at a time per run: a second show while the first closes stray tabs waits for its panel.
    if (this.opening.has(runId)) return;
    const opening = this.closeStrays(runId).finally(() => {
      this.opening.delete(runId);
      if (this.open.has(runId)) {
        this.open.get(runId)?.panel.reveal(undefined, o.preserveFocus);
        return;
      }
      const panel = vscode.window.createWebviewPanel(
        PANEL_VIEW_TYPE,
        this.title(runId),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: o.preserveFocus ?? false },
        this.options(),
      );
      this.adopt(runId, panel, 'created');
    });
    this.opening.set(runId, opening);
  }

  /** Closes tabs of this run's panel that this extension does not hold (left by a stopped extension host, or restored and not yet handed over). */
  private async closeStrays(runId: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const described = tabs.map((tab) => ({ tab, label: tab.label, viewType: tab.input instanceof vscode.TabInputWebview ? tab.input.viewType : undefined }));
    const strays = strayTabs(described, PANEL_VIEW_TYPE, this.title(runId)).map((t) => t.tab);
    if (strays.length === 0) return;
    this.d.log.info(`[${runId}] closing ${strays.length} Run panel tab(s) this window's extension does not hold (left by an extension host that stopped)`);
    await vscode.window.tabGroups
      .close(strays, true)
      .then(undefined, (e: Error) => this.d.log.warn(`[${runId}] could not close a stray Run panel tab: ${e.message}`));
  }

  isOpen(runId: string): boolean {
    return this.open.has(runId);
  }

  /** Re-renders the run's panel soon (or every open panel); saves come in bursts. */
  refresh(runId?: string): void {
    for (const [id, o] of this.open.entries()) {
      if (runId !== undefined && id !== runId) continue;
      if (o.timer) continue;
      o.timer = setTimeout(() => {
        o.timer = undefined;
        void this.render(id);
      }, REFRESH_MS);
    }
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(this.d.extensionUri, 'dist'), vscode.Uri.joinPath(this.d.extensionUri, 'media')],
    };
  }

  private title(runId: string): string {
    const m = /^(.*)-\d{8}T\d{6}Z-[A-Za-z0-9]+$/.exec(runId);
    return `Run: ${m ? shortRunId(runId, m[1]) : shortRunId(runId)}`;
  }

  private adopt(runId: string, panel: vscode.WebviewPanel, origin: PanelOrigin): void {
    const o: Open = { panel, ready: false, ...(origin === 'restored' ? { restored: true } : {}) };
    const { close } = this.open.adopt(runId, o, origin);
    if (close.length > 0) {
      this.d.log.info(`[${runId}] the run's panel is open already; closing the second one (${origin})`);
      for (const c of close) c.panel.dispose();
      return;
    }
    panel.iconPath = vscode.Uri.joinPath(this.d.extensionUri, 'media', 'triage.svg');
    panel.webview.options = this.options();
    const asset = (...p: string[]): string => panel.webview.asWebviewUri(vscode.Uri.joinPath(this.d.extensionUri, ...p)).toString();
    panel.webview.html = panelHtml(
      {
        cspSource: panel.webview.cspSource,
        script: asset('dist', 'panel.js'),
        styles: [asset('dist', 'codicons', 'codicon.css'), asset('media', 'panel.css')],
      },
      this.title(runId),
    );
    panel.title = this.title(runId);
    panel.onDidDispose(() => {
      if (o.timer) clearTimeout(o.timer);
      this.open.forget(runId, o);
    });
    panel.onDidChangeViewState(() => {
      if (panel.visible) this.refresh(runId);
    });
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const m = FromPanelSchema.safeParse(raw);
      if (!m.success) {
        this.d.log.warn(`[${runId}] Run panel: ignored a message of an unknown shape: ${JSON.stringify(raw)?.slice(0, 200)}`);
        return;
      }
      this.onMessage(runId, o, m.data).catch((e: Error) => this.d.log.error(`[${runId}] Run panel: ${e.message}`));
    });
  }

  private async onMessage(runId: string, o: Open, m: FromPanel): Promise<void> {
    switch (m.type) {
      case 'ready':
        o.ready = true;
        await this.render(runId);
        return;
      case 'ping':
        await o.panel.webview.postMessage({ type: 'alive' } satisfies ToPanel);
        return;
      case 'answer':
        await this.d.answer(runId, m.callId, m.answer);
        this.refresh(runId);
        return;
      case 'ask':
        await this.d.ask(runId, m.callId);
        return;
      case 'diff':
        await this.d.diff(runId, m.path);
        return;
      case 'run':
        await this.d.command(m.command, runId);
        this.refresh(runId);
        return;
    }
  }

  private async render(runId: string): Promise<void> {
    const o = this.open.get(runId);
    if (!o || !o.ready || !o.panel.visible) return;
    const stateDir = this.d.stateDir();
    let msg: ToPanel;
    try {
      const store = await this.d.store();
      const transcript = await core.transcripts().loadTranscript(store, runId);
      const files: PanelView['files'] = {};
      for (const f of (await core.runFiles().reviewChanges(store, runId)).files) files[f.path] = f.status;
      const active = this.d.isActive(runId);
      const locked =
        !active &&
        (store.kind === 'files'
          ? await core.stores().openStateFolder(stateDir).runLocked(runId)
          : ((await store.listRuns()).find((l) => l.runId === runId)?.locked ?? false));
      const view: PanelView = { transcript, active, locked, files, ...(o.restored ? { restored: true } : {}) };
      o.restored = false;
      const doing = this.d.activity(runId);
      if (active && doing) view.doing = doing;
      msg = { type: 'view', view };
      o.panel.title = panelTitle(this.title(runId), transcript.pending.length, locked);
    } catch (e) {
      const deleted = await this.deleted(runId);
      msg = { type: 'gone', runId, message: deleted ? deletedRunPanelText(runId) : `Run ${runId} cannot be shown: ${(e as Error).message}` };
      if (deleted) o.panel.title = `${this.title(runId)} (deleted)`;
    }
    await o.panel.webview.postMessage(msg);
  }

  /** True when the store is readable and the run is not in it (deleted), rather than unreadable. */
  private async deleted(runId: string): Promise<boolean> {
    try {
      return !(await (await this.d.store()).listRuns()).some((l) => l.runId === runId);
    } catch {
      return false;
    }
  }

  dispose(): void {
    for (const [, o] of this.open.entries()) o.panel.dispose();
    for (const s of this.subs) s.dispose();
  }
}
