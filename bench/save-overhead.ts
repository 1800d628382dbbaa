/**
 * 1. Save overhead: each save of a real run through the store, against the floor (floor.ts)
 * writing the same bytes, side by side: per save, the store and both floors in rotating order.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRun } from '../src/store/files/checkpoint';
import type { CheckpointHandle } from '../src/store/files/checkpoint-handle';
import { StateEdit } from '../src/store/state-edit';
import { FloorWriter, type SaveOp } from './floor';
import { median, p99, rotated, timed } from './measure';
import type { Report } from './report';
import type { SaveScript } from './runs';

/** The bytes a save wrote: the journal's new tail, or the whole new snapshot. */
async function lastWrite(h: CheckpointHandle): Promise<SaveOp> {
  const last = h.stats.last!;
  if (last.kind === 'compaction') return { kind: 'compaction', bytes: await fs.readFile(h.file) };
  const fh = await fs.open(h.journalFile, 'r');
  try {
    const size = (await fh.stat()).size;
    const bytes = Buffer.alloc(last.bytes);
    await fh.read(bytes, 0, last.bytes, size - last.bytes);
    return { kind: 'append', bytes };
  } finally {
    await fh.close();
  }
}

/** One pass through the script with syncs on, keeping what each save wrote. */
export async function capture(dir: string, script: SaveScript): Promise<SaveOp[]> {
  const s = script.initial('capture');
  const h = (await createRun(dir, s)) as CheckpointHandle;
  const e = new StateEdit(s);
  const ops: SaveOp[] = [];
  for (const step of script.steps()) {
    await h.save(e, step(e));
    ops.push(await lastWrite(h));
  }
  await h.close();
  return ops;
}

export async function saveOverhead(report: Report, script: SaveScript, rounds: number): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-save-'));
  try {
    const storeDir = path.join(root, 'store');
    const ops = await capture(storeDir, script);
    const store: number[] = [];
    const kept: number[] = [];
    const opened: number[] = [];
    let compactions = 0;
    for (let r = 0; r < rounds; r++) {
      const s = script.initial(`round-${r}`);
      const h = (await createRun(storeDir, s)) as CheckpointHandle;
      const e = new StateEdit(s);
      const floorDirs = [path.join(root, `kept-${r}`), path.join(root, `open-${r}`)];
      for (const d of floorDirs) await fs.mkdir(d, { mode: 0o700 });
      const k = new FloorWriter(floorDirs[0], 'kept');
      const o = new FloorWriter(floorDirs[1], 'open');
      const steps = script.steps();
      for (let i = 0; i < steps.length; i++) {
        const point = steps[i](e);
        await rotated(i + r, [
          async () => void store.push(await timed(() => h.save(e, point))),
          async () => void kept.push(await timed(() => k.apply(ops[i]))),
          async () => void opened.push(await timed(() => o.apply(ops[i]))),
        ]);
      }
      compactions += h.stats.compactions;
      await h.close();
      await k.close();
      await o.close();
    }
    const floorCompactions = ops.filter((op) => op.kind === 'compaction').length;
    const bench = 'save';
    const what = `${script.name}: ${ops.length} saves x ${rounds} rounds, syncs on`;
    const bytes = ops.map((op) => op.bytes.length);
    report.add({
      bench,
      name: `${script.name}: saves per run`,
      value: ops.length,
      unit: '',
      note: `median ${median(bytes).toFixed(0)} B written per save; compactions per run: store ${compactions / rounds}, floor ${floorCompactions}`,
    });
    report.add({ bench, name: `${script.name}: store, median per save`, value: median(store), unit: 'ms', note: what });
    report.add({ bench, name: `${script.name}: store, p99 per save`, value: p99(store), unit: 'ms' });
    report.add({
      bench,
      name: `${script.name}: floor (journal kept open), median`,
      value: median(kept),
      unit: 'ms',
      note: 'write + fdatasync of the same bytes',
    });
    report.add({ bench, name: `${script.name}: floor (journal kept open), p99`, value: p99(kept), unit: 'ms' });
    report.add({ bench, name: `${script.name}: floor (open-append-fsync-close), median`, value: median(opened), unit: 'ms' });
    report.atMost(
      {
        bench,
        name: `${script.name}: ratio store / floor (open-append-fsync), median`,
        value: median(store) / median(opened),
        unit: 'x',
        note: 'the floor as issue 7 words it',
      },
      1.2,
    );
    report.add({
      bench,
      name: `${script.name}: ratio store / floor (kept open), median`,
      value: median(store) / median(kept),
      unit: 'x',
      note: `the strict floor (the store's own syscalls): what encoding the record costs, ${((median(store) - median(kept)) * 1000).toFixed(0)} us per save`,
    });
    report.add({ bench, name: `${script.name}: ratio store / floor (kept open), p99`, value: p99(store) / p99(kept), unit: 'x' });
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
