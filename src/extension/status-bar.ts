/**
 * The status bar item: "$(pulse) Triage: turn N · $D" while a run is active in this window
 * (the one that moved last; click: its Run panel), and "Triage: approval needed" in the
 * warning colours while a run waits for a person (click: the question).
 */
import * as vscode from 'vscode';
import { STATUS_APPROVAL, statusBarText } from './logic/texts';

export interface StatusQuestion {
  runId: string;
  callId: string;
  title: string;
}

export class RunStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('durableTriage.run', vscode.StatusBarAlignment.Left, 50);
  private run: { runId?: string; task: string; turn: number; dollars: number } | undefined;
  private count = 0;
  private question: StatusQuestion | undefined;
  private waiting = 0;

  constructor() {
    this.item.name = 'Durable Triage run';
  }

  show(run: { runId?: string; task: string; turn: number; dollars: number } | undefined, activeCount: number): void {
    this.run = run;
    this.count = activeCount;
    this.update();
  }

  /** The first question waiting for a person, and how many wait. */
  ask(q: StatusQuestion | undefined, waiting: number): void {
    this.question = q;
    this.waiting = waiting;
    this.update();
  }

  private update(): void {
    const q = this.question;
    if (q) {
      this.item.text = STATUS_APPROVAL;
      this.item.tooltip = `Durable Triage: ${this.waiting > 1 ? `${this.waiting} questions wait` : 'a run waits'} for you: ${q.title}. Click to answer.`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.item.command = {
        command: 'durableTriage.showQuestion',
        title: 'Answer',
        arguments: [
          {
            type: 'child',
            row: {
              kind: 'question',
              question: 'approval',
              runId: q.runId,
              callId: q.callId,
              tool: '',
              label: '',
              description: '',
              contextValue: 'question-approval',
            },
          },
        ],
      };
      this.item.show();
      return;
    }
    const run = this.run;
    this.item.backgroundColor = undefined;
    if (!run) {
      this.item.hide();
      return;
    }
    this.item.text = statusBarText(run.turn, run.dollars);
    this.item.tooltip = `Durable Triage: ${run.task}${run.runId ? ` (run ${run.runId})` : ''}${this.count > 1 ? `; ${this.count} runs active` : ''}. Click for its Run panel.`;
    this.item.command = run.runId ? { command: 'durableTriage.openRun', title: 'Open Run', arguments: [run.runId] } : 'durableTriage.showLog';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
