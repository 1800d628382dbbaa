/**
 * "$(pulse) Triage: turn N · $D" while a run is active in this window (the one that moved last).
 */
import * as vscode from 'vscode';
import { statusBarText } from './logic/texts';

export class RunStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('durableTriage.run', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Durable Triage run';
    this.item.command = 'durableTriage.showLog';
  }

  show(run: { runId?: string; task: string; turn: number; dollars: number } | undefined, activeCount: number): void {
    if (!run) {
      this.item.hide();
      return;
    }
    this.item.text = statusBarText(run.turn, run.dollars);
    this.item.tooltip = `Durable Triage: ${run.task}${run.runId ? ` (run ${run.runId})` : ''}${activeCount > 1 ? `; ${activeCount} runs active` : ''}. Click for the log.`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
