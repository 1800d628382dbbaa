/**
 * The messages between the Run panel (a webview, src/webview/panel.ts) and the extension
 * (runPanels.ts). The panel only lays out what it is sent and asks for actions by message; it
 * holds no state of its own beyond what is open and where it is scrolled.
 */
import type { Transcript } from '../../triage/transcript/model';
import type { RunFileStatus } from '../../durable/undo';

export const PANEL_VIEW_TYPE = 'durableTriage.run';

export interface PanelView {
  transcript: Transcript;
  /** Running in this window now. */
  active: boolean;
  /** What it does now, in words, while active. */
  doing?: string;
  /** Open in another window or process. */
  locked: boolean;
  /** Where each file the run wrote stands now (as written, changed after, undone…). */
  files: Record<string, RunFileStatus>;
}

export type ToPanel = { type: 'view'; view: PanelView } | { type: 'gone'; runId: string; message: string };

export type PanelCommand = 'review' | 'undo' | 'cancel' | 'resume' | 'checkpoint' | 'log';

export type FromPanel =
  | { type: 'ready' }
  | { type: 'answer'; callId: string; answer: 'approve' | 'deny' }
  /** The ladder's question about a call: ask it (in a dialog). */
  | { type: 'ask'; callId: string }
  /** A written file: its diff against the file before the run. */
  | { type: 'diff'; path: string }
  | { type: 'run'; command: PanelCommand };

/** The state the webview keeps across a reload (so the panel can be restored). */
export interface PanelState {
  runId: string;
  /** Where the transcript was scrolled. */
  scrollY?: number;
}
