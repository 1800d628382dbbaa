/**
 * Whether a Run panel still has an extension behind it. A panel outlives the extension host
 * that made it (the host crashed or was killed): the editor keeps its tab, showing the last
 * view ("running run_tests · Cancel") with buttons nothing answers. The panel pings the
 * extension while it is shown; a ping left unanswered for LOST_AFTER_MS means the host is gone,
 * and the panel says so instead of pretending the run is live.
 */

export const PING_EVERY_MS = 2000;
export const LOST_AFTER_MS = 6000;

export interface Liveness {
  /** When the oldest ping not yet answered was sent; undefined when every ping was answered. */
  unansweredSince?: number;
}

/** A ping was sent at now: the oldest unanswered one is kept. */
export function pinged(l: Liveness, now: number): Liveness {
  return l.unansweredSince === undefined ? { unansweredSince: now } : l;
}

/** The extension answered (any message from it). */
export function heard(): Liveness {
  return {};
}

/** True when a ping has gone unanswered for LOST_AFTER_MS or longer. */
export function hostLost(l: Liveness, now: number, lostAfterMs = LOST_AFTER_MS): boolean {
  return l.unansweredSince !== undefined && now - l.unansweredSince >= lostAfterMs;
}

export const LOST_TEXT =
  "This panel is no longer connected: the editor's extension host stopped, so what it shows may be out of date and its buttons do nothing. " +
  'Close it; the run opens in a new panel when you resume it (or open it from the Runs view).';
