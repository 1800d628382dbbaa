/**
 * A person's answers to the questions a paused run waits on (an approval, or the resolution
 * ladder's question), kept in a shared store for the worker that continues the run: an editor or
 * `triage answer` records one, the run becomes runnable, and the worker's approver
 * (triage/stored-answers.ts) finds it when the loop asks again. A store that has them offers
 * them as `RunStore.answers()` (the PostgreSQL store: pg/pg-answers.ts).
 *
 * An answer is taken only for a question the run is waiting on now, and the first answer to a
 * question stands (a second one, from another editor, is refused): the worker may already have
 * acted on the first.
 */
export type StoredAnswer =
  { kind: 'approval'; answer: 'approve' | 'deny' } | { kind: 'ladder'; answer: 'rerun' } | { kind: 'ladder'; answer: 'done'; result: string };

export type AnswerKind = StoredAnswer['kind'];

export interface RunAnswers {
  /**
   * Records an answer. 'recorded'; 'not-waiting' when the run does not wait on that question
   * (never asked, answered already in a life that went on, or no such run); 'answered-before'
   * when another answer to it was recorded first.
   */
  put(runId: string, callId: string, a: StoredAnswer, by?: string): Promise<'recorded' | 'not-waiting' | 'answered-before'>;
  /** The answer recorded for a question, if any. */
  get(runId: string, kind: AnswerKind, callId: string): Promise<StoredAnswer | undefined>;
}
