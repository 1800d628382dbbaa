/**
 * The suite's time against its budgets, from the timings the last `npm run test:all` (or a tier)
 * left in .cache/test-timings/ (scripts/test-timings.mjs reads the same files): each tier's time
 * on the runner's two slots, the real-editor tests, the whole run's wall time, and the slowest
 * unit test file (one past its budget belongs in the slow tier). Not measured here: running the
 * suite inside the benchmarks would double their time; run the suite first.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Report } from './report';

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = process.env.TRIAGE_TEST_TIMINGS_DIR || path.join(ROOT, '.cache', 'test-timings');
const SLOTS = 2;

/** Seconds each tier may take in `npm run test:all` (its files' time ÷ 2 slots, beside the real-editor tests); e2e: its scenarios; the whole: wall time. Set from this machine's figures with about 15% to spare. */
export const TIER_BUDGETS_S: Record<string, number> = { unit: 45, slow: 250, pg: 250, sweep: 300, e2e: 480 };
export const WHOLE_BUDGET_S = 15 * 60;
export const UNIT_FILE_BUDGET_S = 5;

interface FileRecord {
  kind: 'file';
  file: string;
  wallMs: number;
}

function lines<T>(file: string): T[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      out.push(JSON.parse(l) as T);
    } catch {
      // a line cut short by a kill
    }
  }
  return out;
}

/** The tier a compiled test file belongs to, as scripts/test-tier.mjs decides it. */
function tierOf(file: string, tierOfRel: (rel: string) => string): string {
  // By the path under out/, so that a run in another clone (TRIAGE_TEST_TIMINGS_DIR) is read right too.
  const posix = file.split(path.sep).join('/');
  const at = posix.lastIndexOf('/out/');
  const rel = at >= 0 ? posix.slice(at + 1) : path.relative(ROOT, file).split(path.sep).join('/');
  if (rel.startsWith('out/e2e/')) return 'e2e';
  return tierOfRel(rel.replace(/^out\/test\//, ''));
}

export function testTiers(report: Report): void {
  const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((n) => n.endsWith('.files.jsonl')) : [];
  if (files.length === 0) {
    report.add({ bench: 'tests', name: 'tier times', value: null, unit: '', note: `no timings in ${path.relative(ROOT, DIR)}: run "npm run test:all" first` });
    return;
  }
  // Each compiled test file's tier, as the tier runner lists them.
  const listed = new Map<string, string>();
  const list = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'test-tier.mjs'), 'all', '--list'], { encoding: 'utf8' });
  for (const l of list.split('\n')) {
    const [tier, rel] = l.split('\t');
    if (tier && rel) listed.set(rel, tier);
  }
  const tierOfRel = (rel: string): string => listed.get(rel) ?? 'unit';
  const byTier = new Map<string, number>();
  let slowestUnit: FileRecord | undefined;
  for (const n of files) {
    for (const r of lines<FileRecord>(path.join(DIR, n))) {
      if (r.kind !== 'file') continue;
      const t = tierOf(r.file, tierOfRel);
      byTier.set(t, (byTier.get(t) ?? 0) + r.wallMs);
      if (t === 'unit' && (!slowestUnit || r.wallMs > slowestUnit.wallMs)) slowestUnit = r;
    }
  }
  for (const [tier, budget] of Object.entries(TIER_BUDGETS_S)) {
    const ms = byTier.get(tier);
    const value = ms === undefined ? null : tier === 'e2e' ? ms / 1000 : ms / 1000 / SLOTS;
    const how = tier === 'e2e' ? 'its scenarios one at a time' : `its files' time ÷ ${SLOTS} slots`;
    report.atMost({ bench: 'tests', name: `${tier} tier`, value, unit: 's', note: value === null ? 'not in the last run' : how }, budget);
  }
  const phases = lines<{ phase: string; ms: number; wall?: boolean }>(path.join(DIR, 'phases.jsonl'));
  const wall = phases.find((p) => p.wall);
  if (wall)
    report.atMost(
      { bench: 'tests', name: 'npm run test:all, wall time', value: wall.ms / 1000, unit: 's', note: 'the last run, set-up and build included' },
      WHOLE_BUDGET_S,
    );
  if (slowestUnit) {
    report.atMost(
      { bench: 'tests', name: 'slowest unit test file', value: slowestUnit.wallMs / 1000, unit: 's', note: path.relative(ROOT, slowestUnit.file) },
      UNIT_FILE_BUDGET_S,
    );
  }
}
