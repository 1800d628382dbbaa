/**
 * The Runs view: this workspace's runs (newest first) with phase, turn, spend and restarts;
 * under each, the questions waiting on a person (inline Approve/Deny on approvals), the
 * files it wrote and the attempt markers still unresolved. Empty: the welcome view with a
 * Start Triage button (contributes.viewsWelcome).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunInfo } from '../triage/runinfo';
import { childRows, questionLabel, runRow, waitingCount, type ChildRow, type RunRow, type RunStatus } from './logic/run-rows';
import type { Questions } from './approver';
import * as core from './lazy-modules';
import type { RunStore } from '../store/run-store';
import type { RunListing } from '../store/run-store';

export const RUNS_VIEW = 'durableTriage.runs';

export interface RunNode {
  type: 'run';
  info: RunInfo;
  row: RunRow;
}
export interface ChildNode {
  type: 'child';
  row: ChildRow;
}
export type Node = RunNode | ChildNode;

const ICONS: Record<RunStatus, string> = {
  active: 'sync~spin',
  resumable: 'debug-pause',
  done: 'pass',
  locked: 'lock',
  corrupt: 'warning',
};

export class RunsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly d: {
      stateDir: () => string;
      store: () => Promise<RunStore>;
      shared: () => boolean;
      workspace: () => string | undefined;
      isActive: (runId: string) => boolean;
      questions: Questions;
      log: vscode.LogOutputChannel;
      /** The run stopped because files it wrote changed (its saved question cannot be answered until they are settled). */
      stoppedOnChanges: (runId: string) => boolean;
      /** How many questions wait for a person in this workspace's runs (the view's badge), and the runs listed. */
      onWaiting?: (count: number, runs: RunListing[]) => void;
    },
  ) {}

  /** Re-reads the runs soon (saves come in bursts), and the badge with them, whether or not the view was ever shown. */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.emitter.fire(undefined);
      void this.countWaiting();
    }, 150);
  }

  /** Counts the questions waiting in this workspace's runs for the badge (the view's own listing runs only while it is shown). */
  async countWaiting(): Promise<void> {
    if (!this.d.onWaiting) return;
    const mine = await this.listMine();
    this.d.onWaiting(
      waitingCount(
        mine.flatMap((l) => (l.state?.pending ?? []).map((p) => ({ runId: l.runId, callId: p.callId, elsewhere: l.locked && !this.d.isActive(l.runId) }))),
        this.d.questions.list(),
        this.d.stoppedOnChanges,
      ),
      mine,
    );
  }

  private async listMine(): Promise<RunListing[]> {
    let listings: RunListing[];
    try {
      listings = await (await this.d.store()).listRuns();
    } catch (e) {
      this.d.log.error(`could not list the runs in ${this.d.shared() ? 'the shared store' : this.d.stateDir()}: ${(e as Error).message}`);
      return [];
    }
    // A shared store's runs are the fleet's: all of them are listed, whatever folder they work in.
    const ws = this.d.shared() ? undefined : this.d.workspace();
    return listings.filter((l) => !l.state || !ws || path.resolve(l.state.config.workspace) === path.resolve(ws));
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.runs();
    if (node.type === 'child') return [];
    // Where each written file stands now, so a file changed after the agent wrote it is marked.
    const status = await core
      .runFiles()
      .reviewChanges(this.d.stateDir(), node.info.runId)
      .then((r) => new Map(r.files.map((f) => [f.path, f.status])))
      .catch(() => undefined);
    const rows = childRows(node.info, status, this.d.stoppedOnChanges(node.info.runId));
    // A question a live run here is asking, not yet in the saved state (it is saved as the run pauses).
    for (const q of this.d.questions.list(node.info.runId)) {
      if (rows.some((r) => r.kind === 'question' && r.callId === q.callId)) continue;
      rows.unshift({
        kind: 'question',
        question: q.kind,
        runId: q.runId,
        callId: q.callId,
        tool: q.tool,
        label: questionLabel(q.kind, q.title ?? q.tool),
        description: 'asking now',
        contextValue: q.kind === 'approval' ? 'question-approval' : 'question-ladder',
      });
    }
    return rows.map((row) => ({ type: 'child', row }));
  }

  private async runs(): Promise<Node[]> {
    const mine = await this.listMine();
    const toInfo = core.runInfo().runInfo;
    const asked = this.d.questions.list();
    const saved = mine.flatMap((l) =>
      (l.state?.pending ?? []).map((p) => ({ runId: l.runId, callId: p.callId, elsewhere: l.locked && !this.d.isActive(l.runId) })),
    );
    this.d.onWaiting?.(waitingCount(saved, asked, this.d.stoppedOnChanges), mine);
    return mine.map((l) => {
      const info = toInfo(l);
      return { type: 'run', info, row: runRow(info, this.d.isActive(info.runId)) };
    });
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.type === 'run') {
      const hasChildren =
        node.info.pending.length + node.info.files.length + node.info.unresolved.length > 0 || this.d.questions.list(node.info.runId).length > 0;
      const item = new vscode.TreeItem(node.row.label, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `run:${node.info.runId}`;
      item.description = node.row.description;
      item.tooltip = node.row.tooltip;
      item.contextValue = node.row.contextValue;
      item.iconPath = new vscode.ThemeIcon(ICONS[node.row.status]);
      if (node.row.status !== 'corrupt') item.command = { command: 'durableTriage.openRun', title: 'Open Run', arguments: [node.info.runId] };
      return item;
    }
    const r = node.row;
    const item = new vscode.TreeItem(r.label, vscode.TreeItemCollapsibleState.None);
    item.description = r.description;
    item.contextValue = r.contextValue;
    switch (r.kind) {
      case 'question':
        item.id = `q:${r.runId}:${r.callId}`;
        item.iconPath = new vscode.ThemeIcon(r.question === 'approval' ? 'question' : 'history');
        item.tooltip =
          r.question === 'approval'
            ? `${r.tool} (call ${r.callId}) waits for your approval. Approve or Deny here, or click to be asked again.`
            : `${r.tool} (call ${r.callId}) started but its result was not saved. Click to answer whether it already happened.`;
        item.command = { command: 'durableTriage.showQuestion', title: 'Ask Again', arguments: [node] };
        break;
      case 'file': {
        item.id = `f:${r.runId}:${r.path}`;
        item.iconPath = vscode.ThemeIcon.File;
        const ws = this.d.workspace();
        if (ws) {
          item.resourceUri = vscode.Uri.file(path.join(ws, ...r.path.split('/')));
          item.command = { command: 'vscode.open', title: 'Open File', arguments: [item.resourceUri] };
        }
        item.tooltip = `${r.path}\n${r.description}\nSHA-256 of the agent's version ${r.sha256}`;
        if (r.status === 'changed' || r.status === 'missing') item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
        break;
      }
      case 'marker':
        item.id = `m:${r.runId}:${r.callId}`;
        item.iconPath = new vscode.ThemeIcon('circle-large-outline');
        item.tooltip = `${r.tool} started but its result was not saved; resuming the run decides whether it happened (rerun, lookup, or your answer).`;
        break;
    }
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.emitter.dispose();
  }
}
