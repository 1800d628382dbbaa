/** Helpers for the journal tests: where a run's files are, crash hooks, states that grow in the loop's pattern. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SimulatedCrash } from '../../../src/sweep/simulated-crash';
import { journalPath } from '../../../src/store/files/journal-file';
import type { RunState } from '../../../src/store/state';
import type { Message } from '../../../src/core/conversation';
import { StateEdit } from '../../../src/store/state-edit';

export { journalPath };

/** A crash hook that throws SimulatedCrash the `nth` time (1-based) it passes `point`. */
export function crashAt(point: string, nth = 1): { hook: (p: string) => void; thrown: SimulatedCrash[] } {
  const thrown: SimulatedCrash[] = [];
  let seen = 0;
  return {
    thrown,
    hook: (p) => {
      if (p === point && ++seen === nth) {
        const e = new SimulatedCrash(p);
        thrown.push(e);
        throw e;
      }
    },
  };
}

export async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

export async function readOr(file: string, fallback = Buffer.alloc(0)): Promise<Buffer> {
  return fs.readFile(file).catch(() => fallback);
}

/** Start offsets of each line of a journal, plus its length at the end. */
export function lineStarts(buf: Buffer): number[] {
  const out = [0];
  for (let i = 0; i < buf.length; i++) if (buf[i] === 0x0a && i + 1 < buf.length) out.push(i + 1);
  out.push(buf.length);
  return out;
}

export async function tempNames(dir: string): Promise<string[]> {
  return (await fs.readdir(path.join(dir, 'runs'))).filter((n) => n.endsWith('.tmp'));
}

/**
 * One turn in the loop's pattern: an assistant message with a call, then its tool result of
 * `resultBytes`. Given a StateEdit, the changes are made through it (so a save writes only them).
 */
export function addTurn(target: RunState | StateEdit, turn: number, resultBytes = 64): void {
  const edit = target instanceof StateEdit ? target : undefined;
  const s = edit ? edit.raw : (target as RunState);
  const call = { id: `call_${turn}`, name: 'file_read', args: JSON.stringify({ path: `src/f${turn}.js` }) };
  const messages: Message[] = [
    { role: 'assistant', text: `Turn ${turn}.`, calls: [call] },
    { role: 'tool', results: [{ callId: call.id, content: 'x'.repeat(resultBytes) }] },
  ];
  const usage = { inputTokens: s.usage.inputTokens + 100, outputTokens: s.usage.outputTokens + 10, dollars: s.usage.dollars + 0.001 };
  if (edit) {
    for (const m of messages) edit.push(m);
    edit.set('turns', turn);
    edit.set('usage', usage);
  } else {
    s.messages.push(...messages);
    s.turns = turn;
    s.usage = usage;
  }
}
