/**
 * The Run panel's "show the call": where to scroll so the call's header shows just below the
 * sticky header (with the question bar in it), not under it. Pure: the webview passes what it measures.
 */

/** Room left between the sticky header and the call's top, in CSS pixels. */
export const SCROLL_GAP = 8;

/**
 * `elementTop`: the call's top relative to the viewport; `scrollY`: the page's scroll now;
 * `stickyBottom`: the bottom of the sticky header relative to the viewport. The page's scroll to go to.
 */
export function scrollTopBelowSticky(elementTop: number, scrollY: number, stickyBottom: number, gap = SCROLL_GAP): number {
  return Math.max(0, Math.round(scrollY + elementTop - stickyBottom - gap));
}
