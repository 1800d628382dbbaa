/**
 * Prints the effects sweep's table (what test/data/sweep-effects.txt holds), the time and the
 * notes of any blocked scenario on stderr:
 *   npm run build && npm run --silent sweep:effects > test/data/sweep-effects.txt   the saved table's plan (LEAN_PLAN)
 *   npm run --silent sweep:effects -- --full        every point, 1 and 2 crashes (hours on a loaded machine)
 *   npm run --silent sweep:effects -- [--full] [--double-every M] [--concurrency K] [--keys on|off] [--rows in-process-1,in-process-2,sigkill]
 * (--keys and --rows print a partial table: not the saved one.)
 */
import { parseArgs } from 'node:util';
import { effectsRows, FULL_PLAN, LEAN_PLAN, ROW_NAMES, type EffectsPlan, type EffectsRowName } from './sweep';
import { formatEffectsTable } from './table';

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      'double-every': { type: 'string' },
      concurrency: { type: 'string' },
      keys: { type: 'string' },
      rows: { type: 'string' },
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
  const keys = v.keys === undefined ? undefined : v.keys === 'on' ? [true] : v.keys === 'off' ? [false] : undefined;
  if (v.keys !== undefined && keys === undefined) throw new Error(`--keys is on or off, not "${v.keys}"`);
  const rows = v.rows?.split(',').map((r) => r.trim()) as EffectsRowName[] | undefined;
  for (const r of rows ?? []) if (!ROW_NAMES.includes(r)) throw new Error(`--rows takes ${ROW_NAMES.join(', ')}; not "${r}"`);
  const started = Date.now();
  const t = await effectsRows(plan, (line) => process.stderr.write(`${line}\n`), { ...(keys ? { keys } : {}), ...(rows ? { rows } : {}) });
  process.stdout.write(formatEffectsTable(t.rows, t.notes));
  process.stderr.write(`${t.rows.reduce((n, r) => n + r.scenarios, 0)} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const r of t.rows) for (const note of r.notes) process.stderr.write(`${r.kind} keys ${r.keys ? 'on' : 'off'} ${r.crashes}: ${note}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${String((e as Error)?.stack ?? e)}\n`);
  process.exitCode = 1;
});
