/**
 * Prints the effects sweep's table (what test/data/sweep-effects.txt holds), the time and the
 * notes of any blocked scenario on stderr:
 *   npm run build && npm run --silent sweep:effects > test/data/sweep-effects.txt   the saved table's plan (LEAN_PLAN)
 *   npm run --silent sweep:effects -- --full        every point, 1 and 2 crashes (hours on a loaded machine)
 *   npm run --silent sweep:effects -- [--full] [--double-every M] [--concurrency K]
 */
import { parseArgs } from 'node:util';
import { effectsRows, FULL_PLAN, LEAN_PLAN, type EffectsPlan } from './sweep';
import { formatEffectsTable } from './table';

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      'double-every': { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  const base: EffectsPlan = v.full ? FULL_PLAN : LEAN_PLAN;
  const num = (s: string | undefined, d: number): number => {
    if (s === undefined) return d;
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`expected a whole number of at least 1, not "${s}"`);
    return n;
  };
  const plan: EffectsPlan = { ...base, doubleEvery: num(v['double-every'], base.doubleEvery), concurrency: num(v.concurrency, base.concurrency) };
  const started = Date.now();
  const t = await effectsRows(plan, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(formatEffectsTable(t.rows, t.notes));
  process.stderr.write(`${t.rows.reduce((n, r) => n + r.scenarios, 0)} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const r of t.rows) for (const note of r.notes) process.stderr.write(`${r.kind} keys ${r.keys ? 'on' : 'off'} ${r.crashes}: ${note}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${String((e as Error)?.stack ?? e)}\n`);
  process.exitCode = 1;
});
