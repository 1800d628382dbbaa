/**
 * 2. Growth: save time and bytes written per save on runs already holding 100, 1k, 10k and 32k
 * messages (the synthetic pattern: tool results of a few KB), the same saves at every size. The
 * compaction a long run pays from time to time is measured too (the whole state written as a
 * snapshot: what every save would cost if it rewrote the state), and spread over the saves
 * between two compactions to give the amortized figures.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRun } from '../src/store/files/checkpoint';
import { COMPACT_MIN_BYTES, type CheckpointHandle } from '../src/store/files/checkpoint-handle';
import { writeFileAtomic } from '../src/disk/atomic-write';
import { encodeSnapshot } from '../src/store/files/snapshot';
import type { RunState } from '../src/store/state';
import { StateEdit } from '../src/store/state-edit';
import { median, p99, rotated, timed } from './measure';
import type { Report } from './report';
import { LoopPattern, stateWithMessages } from './synth';

export const GROWTH_SIZES = [100, 1000, 10_000, 32_000];

interface AtSize {
  messages: number;
  stateBytes: number;
  ms: number[];
  bytes: number[];
  compactionMs: number;
}

interface OpenRun {
  n: number;
  dir: string;
  s: RunState;
  e: StateEdit;
  h: CheckpointHandle;
  pattern: LoopPattern;
  at: AtSize;
}

async function openAt(root: string, n: number): Promise<OpenRun> {
  const dir = path.join(root, `m${n}`);
  const s = stateWithMessages(`grow-${n}`, n, 1);
  const messages = s.messages.length;
  const h = (await createRun(dir, s)) as CheckpointHandle;
  // The same saves at every size.
  return {
    n,
    dir,
    s,
    e: new StateEdit(s),
    h,
    pattern: new LoopPattern(99, Number.MAX_SAFE_INTEGER),
    at: { messages, stateBytes: h.stats.last!.bytes, ms: [], bytes: [], compactionMs: NaN },
  };
}

async function saveOnce(r: OpenRun): Promise<void> {
  const point = r.pattern.step(r.e)!;
  r.at.ms.push(await timed(() => r.h.save(r.e, point)));
  if (r.h.stats.last!.kind !== 'append') throw new Error(`a save at ${r.n} messages compacted; the growth figures compare appends`);
  r.at.bytes.push(r.h.stats.last!.bytes);
}

/** A compaction's work: the whole state encoded and written atomically (median of three). */
async function compactionMs(r: OpenRun): Promise<number> {
  const c: number[] = [];
  for (let i = 0; i < 3; i++) {
    c.push(
      await timed(() => writeFileAtomic(path.join(r.dir, 'compaction.json'), path.join(r.dir, `.compaction.${i}.tmp`), Buffer.from(encodeSnapshot(1, r.s)))),
    );
  }
  return median(c);
}

/** All sizes open at once, their saves interleaved (rotating order), so each size sees the same machine. */
async function measureAll(root: string, saves: number): Promise<AtSize[]> {
  const runs: OpenRun[] = [];
  for (const n of GROWTH_SIZES) runs.push(await openAt(root, n));
  for (let i = 0; i < saves; i++)
    await rotated(
      i,
      runs.map((r) => () => saveOnce(r)),
    );
  for (const r of runs) {
    await r.h.close();
    r.at.compactionMs = await compactionMs(r);
    await fs.rm(r.dir, { recursive: true, force: true });
  }
  return runs.map((r) => r.at);
}

export async function growth(report: Report, saves = 90): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-growth-'));
  try {
    const at = await measureAll(root, saves);
    const bench = 'growth';
    for (const a of at) {
      const perCompaction = Math.max(COMPACT_MIN_BYTES, a.stateBytes) / median(a.bytes); // saves between two compactions
      const label = `${a.messages} messages (${(a.stateBytes / 1e6).toFixed(1)} MB state)`;
      report.add({
        bench,
        name: `${label}: median per save`,
        value: median(a.ms),
        unit: 'ms',
        note: `p99 ${p99(a.ms).toFixed(3)} ms over ${saves} saves, syncs on`,
      });
      report.add({ bench, name: `${label}: bytes per save (median)`, value: median(a.bytes), unit: 'B' });
      report.add({
        bench,
        name: `${label}: a compaction (whole state)`,
        value: a.compactionMs,
        unit: 'ms',
        note: `once per ~${perCompaction.toFixed(0)} saves; amortized ${(median(a.ms) + a.compactionMs / perCompaction).toFixed(3)} ms, ${(median(a.bytes) + a.stateBytes / perCompaction).toFixed(0)} B per save`,
      });
    }
    const first = at[0];
    const last = at[at.length - 1];
    const pair = `${last.messages} vs ${first.messages} messages`;
    report.atMost({ bench, name: `ratio save time, ${pair}`, value: median(last.ms) / median(first.ms), unit: 'x' }, 2);
    report.atMost({ bench, name: `ratio bytes per save, ${pair}`, value: median(last.bytes) / median(first.bytes), unit: 'x' }, 2);
    const amort = (a: AtSize): number => median(a.bytes) * (1 + a.stateBytes / Math.max(COMPACT_MIN_BYTES, a.stateBytes));
    report.add({ bench, name: `ratio amortized bytes per save (compactions included), ${pair}`, value: amort(last) / amort(first), unit: 'x' });
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
