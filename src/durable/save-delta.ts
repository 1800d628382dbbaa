/**
 * What changed since the previous save, so a save writes that and not the whole state.
 *
 * Messages: the loop only appends. `from` is the length of the unchanged prefix: every saved
 * message for an append, fewer when a message was replaced or the list shrank (0: a full
 * record). Saved messages are compared by identity, in constant time per save: the first few,
 * the last 64, and a window of 1024 that moves on with every save (so each message is checked
 * at least once every length/1024 saves); every one of them when the array itself is a new
 * object; and, when any of these differs, all of them, to find the first change. The last saved
 * message is also compared by content (leaves.ts), which catches a result added to it in place.
 * So a shrink, a new array, or a change near either end is written by the save that follows
 * it; a message replaced in the middle of a long run, within length/1024 saves. A message older
 * than the last saved one must not be changed in place (replace it instead): that is only
 * written when the next compaction rewrites the state.
 *
 * Other fields: each top-level field is compared by content with the previous save's
 * (leaves.ts: a walk, no encoding), and only what changed is encoded. A field holding an
 * object (results, attempts, files, usage...) that only gained or changed entries is patched
 * entry by entry, so a map that grows over the run (files) costs its new entry, not its size.
 */
import type { RecordChange } from './journal-record';
import type { Message, RunState } from './state';
import { leavesOf, sameLeaves, type Leaves } from './leaves';

/** A field as last saved: a value, or a plain object entry by entry. */
type FieldView = { leaves: Leaves } | { entries: Map<string, Leaves> };

const HEAD = 8;
const TAIL = 64;
const WINDOW = 1024;

/** The first index in [lo, hi) where the two lists hold different objects, or -1. */
function firstDifference(a: readonly unknown[], b: readonly unknown[], lo: number, hi: number): number {
  for (let i = lo; i < hi; i++) if (a[i] !== b[i]) return i;
  return -1;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

function viewOf(v: unknown): FieldView {
  if (!isPlainObject(v)) return { leaves: leavesOf(v) };
  const entries = new Map<string, Leaves>();
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x !== undefined && typeof x !== 'function') entries.set(k, leavesOf(x));
  }
  return { entries };
}

export class SavedView {
  private refs: Message[] = [];
  /** The messages array last seen, and where the moving window checks next. */
  private array: Message[] | undefined;
  private cursor = 0;
  private last: Leaves | undefined;
  private fields = new Map<string, FieldView>();

  constructor(state: RunState) {
    this.reset(state);
  }

  /** Remembers `state` as saved in full (loaded, or written as a snapshot). */
  reset(state: RunState): void {
    this.refs = state.messages.slice();
    this.array = state.messages;
    this.cursor = 0;
    const last = this.refs[this.refs.length - 1];
    this.last = last === undefined ? undefined : leavesOf(last);
    this.fields = new Map();
    for (const [k, v] of fieldsOf(state)) this.fields.set(k, viewOf(v));
  }

  /** The change from the state last seen to `state`; remembers `state` as the one last seen. */
  next(state: RunState): RecordChange {
    const c: RecordChange = { from: 0, messages: [], set: [], patch: [], unset: [] };
    this.nextMessages(state.messages, c);
    const now = new Map<string, FieldView>();
    for (const [k, v] of fieldsOf(state)) {
      const view = viewOf(v);
      now.set(k, view);
      this.diffField(k, v, this.fields.get(k), view, c);
    }
    for (const k of this.fields.keys()) if (!now.has(k)) c.unset.push(k);
    this.fields = now;
    return c;
  }

  private nextMessages(msgs: Message[], c: RecordChange): void {
    const prev = this.refs;
    let from = Math.min(prev.length, msgs.length);
    if (msgs !== this.array || this.changedInWindows(msgs, from)) {
      const i = firstDifference(msgs, prev, 0, from);
      if (i >= 0) from = i;
    }
    this.array = msgs;
    if (from === prev.length && from > 0 && !sameLeaves(this.last, leavesOf(msgs[from - 1]))) from--;
    const oldLength = prev.length;
    prev.length = from;
    for (let i = from; i < msgs.length; i++) {
      c.messages.push(msgs[i]);
      prev.push(msgs[i]);
    }
    if (prev.length === 0) this.last = undefined;
    else if (c.messages.length > 0 || prev.length < oldLength) this.last = leavesOf(prev[prev.length - 1]);
    c.from = from;
  }

  /** Whether the head, the tail or the moving window of the first `n` messages differs; moves the window on. */
  private changedInWindows(msgs: Message[], n: number): boolean {
    const prev = this.refs;
    const lo = this.cursor < n ? this.cursor : 0;
    const hi = Math.min(lo + WINDOW, n);
    this.cursor = hi >= n ? 0 : hi;
    return (
      firstDifference(msgs, prev, 0, Math.min(HEAD, n)) >= 0 ||
      firstDifference(msgs, prev, Math.max(0, n - TAIL), n) >= 0 ||
      firstDifference(msgs, prev, lo, hi) >= 0
    );
  }

  private diffField(k: string, v: unknown, before: FieldView | undefined, now: FieldView, c: RecordChange): void {
    if (before && 'entries' in before && 'entries' in now && [...before.entries.keys()].every((e) => now.entries.has(e))) {
      const o = v as Record<string, unknown>;
      const changed: Array<[string, unknown]> = [];
      for (const [e, l] of now.entries) if (!sameLeaves(before.entries.get(e), l)) changed.push([e, o[e]]);
      if (changed.length > 0) c.patch.push([k, changed]);
      return;
    }
    if (before && 'leaves' in before && 'leaves' in now && sameLeaves(before.leaves, now.leaves)) return;
    c.set.push([k, v]);
  }
}

/** Every set top-level field except messages. */
function fieldsOf(state: RunState): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(state)) {
    if (k === 'messages' || v === undefined || typeof v === 'function') continue;
    out.push([k, v]);
  }
  return out;
}
