/**
 * The answers of the PostgreSQL store (triage_answers): see ../answers.ts for what they are.
 */
import type { PgDatabase } from './database';
import type { AnswerKind, RunAnswers, StoredAnswer } from '../answers';

export class PgAnswers implements RunAnswers {
  constructor(private readonly db: PgDatabase) {}

  /**
   * Records an answer. 'recorded'; 'not-waiting' when the run does not wait on that question
   * (never asked, answered already in a life that went on, or no such run); 'answered-before'
   * when another answer to it was recorded first.
   */
  async put(runId: string, callId: string, a: StoredAnswer, by?: string): Promise<'recorded' | 'not-waiting' | 'answered-before'> {
    const r = await this.db.query<{ waiting: boolean; inserted: boolean }>(
      `WITH w AS (SELECT 1 FROM triage_runs WHERE run_id = $1 AND $2 || ':' || $3 = ANY (waiting)),
       ins AS (
         INSERT INTO triage_answers (run_id, kind, call_id, answer, result, answered_by)
         SELECT $1, $2, $3, $4, $5, $6 FROM w
         ON CONFLICT (run_id, kind, call_id) DO NOTHING
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM w) AS waiting, EXISTS (SELECT 1 FROM ins) AS inserted`,
      [runId, a.kind, callId, a.answer, a.kind === 'ladder' && a.answer === 'done' ? a.result : null, by ?? null],
    );
    const row = r.rows[0];
    if (!row.waiting) return 'not-waiting';
    return row.inserted ? 'recorded' : 'answered-before';
  }

  /** The answer recorded for a question, if any. */
  async get(runId: string, kind: AnswerKind, callId: string): Promise<StoredAnswer | undefined> {
    const r = await this.db.query<{ answer: string; result: string | null }>(
      'SELECT answer, result FROM triage_answers WHERE run_id = $1 AND kind = $2 AND call_id = $3',
      [runId, kind, callId],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    if (kind === 'approval') return row.answer === 'approve' ? { kind, answer: 'approve' } : { kind, answer: 'deny' };
    return row.answer === 'done'
      ? { kind: 'ladder', answer: 'done', result: row.result ?? 'A person confirmed the call had already happened.' }
      : { kind: 'ladder', answer: 'rerun' };
  }
}
