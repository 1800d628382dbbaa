/**
 * Changing a run's state and saying what changed, in one step, so a save writes exactly what
 * its caller changed: the store never has to guess by comparing objects, and an edit it was
 * told about can never be silently dropped.
 *
 * The loop holds one StateEdit over its state and changes the state only through it (it sees
 * the state itself as read-only, see `StateView`). At each save point the store takes the
 * changes (`take()`) and appends them as one journal record:
 *   - messages: appended ones (`push`), and from the first message replaced or edited in place
 *     (`replaceMessage`, `messageChanged`) onwards;
 *   - fields set or removed (`set`), entries put into or dropped from the map fields (`put`, `drop`).
 */
import type { RecordChange } from './files/journal-record';
import type { RunState } from './state';
import type { Message } from '../core/conversation';

/**
 * The state as the loop reads it: no field can be assigned, no list pushed to, no map entry
 * put, so every change has to go through a StateEdit (which records it for the next save).
 */
export type StateView = {
  readonly [K in keyof RunState]: RunState[K] extends (infer E)[] | undefined
    ? readonly E[] | Extract<RunState[K], undefined>
    : RunState[K] extends object | undefined
      ? Readonly<RunState[K]>
      : RunState[K];
};

/** The top-level fields other than messages. */
export type StateField = Exclude<keyof RunState, 'messages'>;

/** The fields holding a map whose entries are put one by one. */
export type MapField = 'results' | 'attempts' | 'files';
type EntryOf<K extends MapField> = NonNullable<RunState[K]>[string];

/** defineProperty, not assignment: a key such as "__proto__" (a file path, a call ID) stays an ordinary entry. */
function define(o: object, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

export class StateEdit {
  /** Messages before this index are as last saved. */
  private from: number;
  private readonly setFields = new Set<StateField>();
  private readonly removed = new Set<StateField>();
  private readonly entries = new Map<MapField, Set<string>>();

  constructor(private readonly s: RunState) {
    this.from = s.messages.length;
  }

  /** The state, read-only. */
  get state(): StateView {
    return this.s;
  }

  /** The state for the store that writes it (and for code outside the loop that owns it outright). */
  get raw(): RunState {
    return this.s;
  }

  push(m: Message): void {
    this.s.messages.push(m);
  }

  /** Replaces message `i` (an earlier message, not only the last one). */
  replaceMessage(i: number, m: Message): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.s.messages.length) throw new RangeError(`no message ${i} to replace (there are ${this.s.messages.length})`);
    this.s.messages[i] = m;
    this.from = Math.min(this.from, i);
  }

  /** Message `i` was changed in place: it and every message after it are written again. */
  messageChanged(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.s.messages.length) throw new RangeError(`no message ${i} (there are ${this.s.messages.length})`);
    this.from = Math.min(this.from, i);
  }

  /** Sets a field, or removes it (undefined). */
  set<K extends StateField>(k: K, v: RunState[K] | undefined): void {
    this.entries.delete(k as MapField);
    if (v === undefined) {
      delete this.s[k];
      this.setFields.delete(k);
      this.removed.add(k);
    } else {
      this.s[k] = v;
      this.removed.delete(k);
      this.setFields.add(k);
    }
  }

  /** Puts one entry into a map field (creating the map when absent). */
  put<K extends MapField>(k: K, key: string, v: EntryOf<K>): void {
    let o = this.s[k] as Record<string, unknown> | undefined;
    if (o === undefined) {
      o = {};
      (this.s as unknown as Record<string, unknown>)[k] = o;
      this.set(k, o as RunState[K]);
    }
    define(o, key, v);
    if (this.setFields.has(k)) return; // written whole anyway
    let keys = this.entries.get(k);
    if (!keys) this.entries.set(k, (keys = new Set()));
    keys.add(key);
  }

  /** Removes one entry of a map field; the map is written whole (a record cannot remove an entry). */
  drop<K extends MapField>(k: K, key: string): void {
    const o = this.s[k] as Record<string, unknown> | undefined;
    if (!o || !Object.hasOwn(o, key)) return;
    delete o[key];
    this.set(k, o as RunState[K]);
  }

  /** Whether anything changed since the last take(). */
  get changed(): boolean {
    return this.from < this.s.messages.length || this.setFields.size > 0 || this.removed.size > 0 || this.entries.size > 0;
  }

  /** What changed since the last take(), as a journal record's content; starts over. */
  take(): RecordChange {
    const s = this.s as unknown as Record<string, unknown>;
    const c: RecordChange = { from: this.from, messages: this.s.messages.slice(this.from), set: [], patch: [], unset: [...this.removed] };
    for (const k of this.setFields) c.set.push([k, s[k]]);
    for (const [k, keys] of this.entries) {
      const o = s[k] as Record<string, unknown>;
      c.patch.push([k, [...keys].map((e) => [e, o[e]] as [string, unknown])]);
    }
    this.from = this.s.messages.length;
    this.setFields.clear();
    this.removed.clear();
    this.entries.clear();
    return c;
  }
}
