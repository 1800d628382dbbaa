/**
 * The messages between the Run panel (a webview, src/webview/panel.ts) and the extension
 * (src/extension/run-panels.ts). The panel only lays out what it is sent and asks for actions by message; it
 * holds no state of its own beyond what is open and where it is scrolled.
 */
import { z } from 'zod';
import type { RunFileStatus, Transcript } from '../core/transcript';

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
  /** The panel was restored after a reload: it opens at the question or the end (first-scroll.ts), not at its old scroll. */
  restored?: boolean;
}

export type ToPanel = { type: 'view'; view: PanelView } | { type: 'gone'; runId: string; message: string } | { type: 'alive' };

export const PANEL_COMMANDS = ['review', 'undo', 'cancel', 'resume', 'checkpoint', 'log'] as const;
export type PanelCommand = (typeof PANEL_COMMANDS)[number];

/** What the panel may ask for; a message of any other shape is ignored (and logged). */
export const FromPanelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Is the extension still there? (answered with 'alive'; see liveness.ts) */
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('answer'), callId: z.string(), answer: z.enum(['approve', 'deny']) }),
  /** The ladder's question about a call: ask it (in a dialog). */
  z.object({ type: z.literal('ask'), callId: z.string() }),
  /** A written file: its diff against the file before the run. */
  z.object({ type: z.literal('diff'), path: z.string() }),
  z.object({ type: z.literal('run'), command: z.enum(PANEL_COMMANDS) }),
]);
export type FromPanel = z.infer<typeof FromPanelSchema>;

/** The state the webview keeps across a reload (so the panel can be restored). */
export interface PanelState {
  runId: string;
  /** Where the transcript was scrolled. */
  scrollY?: number;
}
