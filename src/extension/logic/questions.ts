/**
 * The open questions of this window, by run and call: an approval or the ladder's question
 * that a live run is waiting on. A question can be answered from its notification or from
 * the Runs view; whichever answers first wins, later answers are ignored. A dismissed
 * notification answers nothing.
 *
 * An answer given for a call whose run is not waiting here (e.g. Approve in the Runs view
 * on a paused run) is kept as a pre-answer: when the resumed run asks that question, it is
 * answered at once, without showing a notification.
 *
 * Each answer remembers who gave it ("you, in the Run panel"), so the run's history can say
 * so and a stale notification clicked later can say the question was already decided.
 */

export type QuestionKind = 'approval' | 'ladder';

export interface QuestionInfo {
  runId: string;
  callId: string;
  kind: QuestionKind;
  tool: string;
  /** The notification's text, to show it again. */
  message: string;
  /** What the call acts on, for a person: "File issue: …", "Patch src/a.js". */
  title?: string;
}

/** How a question was decided: the answer, and who gave it. */
export interface Decision<A> {
  answer: A;
  by?: string;
}

export interface Ticket<A> {
  readonly info: QuestionInfo;
  /** Resolves with the first answer. */
  readonly answer: Promise<A>;
  readonly settled: boolean;
  /** Answers the question (`by`: who answered, in words); false when it had been answered already. */
  settle(a: A, by?: string): boolean;
  /** The decision, once settled. */
  readonly decision: Decision<A> | undefined;
}

/** How many decisions are remembered (for stale notifications and the history). */
const KEEP_DECISIONS = 500;

function keyOf(runId: string, callId: string): string {
  return JSON.stringify([runId, callId]);
}

export class QuestionRegistry<A> {
  private readonly open = new Map<string, Ticket<A>>();
  private readonly pre = new Map<string, Decision<A>>();
  private readonly decisions = new Map<string, Decision<A>>();
  private readonly listeners = new Set<() => void>();

  /** Opens a question (or returns it, if that call's question is open already). */
  ask(info: QuestionInfo): Ticket<A> {
    const key = keyOf(info.runId, info.callId);
    const existing = this.open.get(key);
    if (existing) return existing;
    let resolve!: (a: A) => void;
    const answer = new Promise<A>((r) => (resolve = r));
    let decision: Decision<A> | undefined;
    const ticket: Ticket<A> = {
      info,
      answer,
      get settled() {
        return decision !== undefined;
      },
      get decision() {
        return decision;
      },
      settle: (a: A, by?: string) => {
        if (decision) return false;
        decision = by ? { answer: a, by } : { answer: a };
        this.remember(key, decision);
        if (this.open.get(key) === ticket) this.open.delete(key);
        resolve(a);
        this.changed();
        return true;
      },
    };
    this.open.set(key, ticket);
    const pre = this.pre.get(key);
    if (pre !== undefined) {
      this.pre.delete(key);
      ticket.settle(pre.answer, pre.by);
    } else {
      this.changed();
    }
    return ticket;
  }

  /** The open question of a call, if a live run here is waiting on it. */
  get(runId: string, callId: string): Ticket<A> | undefined {
    return this.open.get(keyOf(runId, callId));
  }

  /** Answers the open question of a call; false when none is open (see preanswer). */
  answer(runId: string, callId: string, a: A, by?: string): boolean {
    const t = this.open.get(keyOf(runId, callId));
    return t ? t.settle(a, by) : false;
  }

  /** Keeps an answer for a call whose run is not waiting here yet. */
  preanswer(runId: string, callId: string, a: A, by?: string): void {
    if (this.answer(runId, callId, a, by)) return;
    this.pre.set(keyOf(runId, callId), by ? { answer: a, by } : { answer: a });
  }

  /** The last decision about a call's question in this window, if any (kept after the question closed). */
  decided(runId: string, callId: string): Decision<A> | undefined {
    return this.decisions.get(keyOf(runId, callId));
  }

  private remember(key: string, d: Decision<A>): void {
    this.decisions.delete(key);
    this.decisions.set(key, d);
    if (this.decisions.size > KEEP_DECISIONS) this.decisions.delete(this.decisions.keys().next().value as string);
  }

  hasPreanswer(runId: string, callId: string): boolean {
    return this.pre.has(keyOf(runId, callId));
  }

  /** Open questions, oldest first; of one run when runId is given. */
  list(runId?: string): QuestionInfo[] {
    return [...this.open.values()].map((t) => t.info).filter((i) => runId === undefined || i.runId === runId);
  }

  /** Answers every open question of a run with `a` (e.g. "later" when it is cancelled) and drops its pre-answers. */
  closeRun(runId: string, a: A, by?: string): void {
    for (const t of [...this.open.values()]) if (t.info.runId === runId) t.settle(a, by);
    for (const k of [...this.pre.keys()]) if ((JSON.parse(k) as string[])[0] === runId) this.pre.delete(k);
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
