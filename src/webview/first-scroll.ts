/**
 * Where the Run panel opens (its first render: a new panel, one shown again after its tab was in
 * the background, or one restored after a reload). Pure: the webview passes what it knows.
 *
 * A panel restored after a reload opens where the run stopped: at the question the run waits on,
 * else at the end. The scroll saved before the reload is not used: the run has moved on since
 * (a restart entry at least), so the old offset lands in the middle of something else. A tab
 * shown again keeps the place the person left.
 */

export type FirstScroll = { to: 'saved'; y: number } | { to: 'question'; callId: string } | { to: 'end' } | { to: 'top' };

export interface FirstScrollInput {
  /** The panel was restored after a reload (the extension says so in the view it sends). */
  restored: boolean;
  /** The scroll this panel saved before (undefined for a panel never shown). */
  savedY?: number;
  /** The first question the run waits on. */
  pendingCallId?: string;
  /** Running in this window now. */
  active: boolean;
}

export function firstScroll(i: FirstScrollInput): FirstScroll {
  if (!i.restored && i.savedY !== undefined && i.savedY > 0) return { to: 'saved', y: i.savedY };
  if (i.pendingCallId !== undefined) return { to: 'question', callId: i.pendingCallId };
  // Restored, or a live run: where the run is (the end). A new panel on a stopped run: its start.
  if (i.restored || i.active) return { to: 'end' };
  return { to: 'top' };
}
