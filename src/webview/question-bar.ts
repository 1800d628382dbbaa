/**
 * What the Run panel offers for a question the run waits on. A run open in another window (or a
 * `triage` process) is asked there: this panel says so instead of offering Approve and Deny that
 * could not act. Pure: the webview lays it out.
 */

export const ASKED_ELSEWHERE_TEXT = 'Asked in the window (or triage process) that has this run open: answer it there.';

export type QuestionOffer = { kind: 'buttons' } | { kind: 'elsewhere'; text: string };

export function questionOffer(view: { active: boolean; locked: boolean }): QuestionOffer {
  return !view.active && view.locked ? { kind: 'elsewhere', text: ASKED_ELSEWHERE_TEXT } : { kind: 'buttons' };
}
