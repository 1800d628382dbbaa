/**
 * 5. Extension: the bundle's size, the .vsix's size, and the time from loading the bundle to
 * activate() returning, and on to the startup scan offering to resume one interrupted run, each
 * activation in a fresh process (activate-child.ts) with a faked `vscode`.
 */
import { StateEdit } from '../src/store/state-edit';
import { spawn } from 'node:child_process';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRun } from '../src/store/files/checkpoint';
import { median } from './measure';
import type { Report } from './report';
import { freshState, LoopPattern } from './synth';

const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'extension.js');
const VSIX = path.join(ROOT, 'dist', 'durable-triage.vsix');

interface Activation {
  requireMs: number;
  activateMs: number;
  offerMs: number | null;
  shown: string[];
}

function activateOnce(args: string[]): Promise<Activation> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'activate-child.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`activation failed (exit ${code}): ${err.trim().split('\n').slice(0, 6).join(' | ')}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Activation);
      } catch {
        reject(new Error(`activation printed no result: ${out} ${err}`));
      }
    });
  });
}

function sizeOf(file: string): number | undefined {
  try {
    return fsSync.statSync(file).size;
  } catch {
    return undefined;
  }
}

export async function extension(report: Report, runs = 5): Promise<void> {
  const bench = 'extension';
  const bundle = sizeOf(BUNDLE);
  const vsix = sizeOf(VSIX);
  const missing = (f: string): string => `${path.relative(ROOT, f)} is missing: run "npm run package" first (npm run bench does)`;
  report.add({
    bench,
    name: 'bundle size (dist/extension.js)',
    value: bundle === undefined ? null : bundle / 1024,
    unit: 'KB',
    ...(bundle === undefined ? { note: missing(BUNDLE) } : {}),
  });
  report.add({
    bench,
    name: '.vsix size (dist/durable-triage.vsix)',
    value: vsix === undefined ? null : vsix / 1024,
    unit: 'KB',
    ...(vsix === undefined ? { note: missing(VSIX) } : {}),
  });
  if (bundle === undefined) return;
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-ext-'));
  try {
    const ws = path.join(root, 'ws');
    const stateDir = path.join(root, 'state');
    await fs.mkdir(ws);
    // One interrupted run: started, a reply saved, its calls not all answered.
    const s = freshState('batch-parser-20250102T030405Z-benchrun', ws);
    const h = await createRun(stateDir, s);
    const p = new LoopPattern(5, 3);
    const e = new StateEdit(s);
    for (let i = 0; i < 4; i++) await h.save(e, p.step(e)!);
    await h.close();
    const all: Activation[] = [];
    try {
      for (let i = 0; i < runs; i++) all.push(await activateOnce([BUNDLE, stateDir, ws, s.runId, ROOT]));
    } catch (e) {
      report.add({ bench, name: 'activation', value: null, unit: '', note: (e as Error).message });
      return;
    }
    const offers = all.map((a) => a.offerMs).filter((x): x is number => x !== null);
    report.add({
      bench,
      name: 'require(dist/extension.js)',
      value: median(all.map((a) => a.requireMs)),
      unit: 'ms',
      note: `median of ${runs} fresh processes, vscode faked`,
    });
    report.add({ bench, name: 'activate() returned', value: median(all.map((a) => a.activateMs)), unit: 'ms', note: 'after the require' });
    report.add({
      bench,
      name: 'load to resume offer for the interrupted run',
      value: offers.length === all.length ? median(offers) : null,
      unit: 'ms',
      note:
        offers.length === all.length
          ? 'from the require to the notification naming the run'
          : `no offer seen; notifications: ${all[0].shown.join(' / ') || 'none'}`,
    });
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
