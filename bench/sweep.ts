/**
 * 4. Sweep: scenarios per second of the in-process crash sweep, the SIGKILL sweep and the
 * power-loss sweep (src/sweep), keys on. Each sweep runs every scenario it has, so this is the
 * longest benchmark; its counts are checked by the sweep's own test, not here.
 */
import { sum, timed } from './measure';
import type { Report } from './report';

interface Row {
  scenarios: number;
  duplicates: number;
  paidTwice: number;
  unfinished: number;
  failing: number;
  ackLost: number;
  blocked: number;
}

async function one(report: Report, name: string, run: () => Promise<Row[]>): Promise<void> {
  let rows: Row[] = [];
  let ms: number;
  try {
    ms = await timed(async () => void (rows = await run()));
  } catch (e) {
    report.add({ bench: 'sweep', name: `${name}: scenarios per second`, value: null, unit: '', note: `did not run: ${(e as Error).message.split('\n')[0]}` });
    return;
  }
  const n = sum(rows.map((r) => r.scenarios));
  const bad = sum(rows.map((r) => r.duplicates + r.paidTwice + r.unfinished + r.failing + r.ackLost + r.blocked));
  report.add({
    bench: 'sweep',
    name: `${name}: scenarios per second`,
    value: n / (ms / 1000),
    unit: '/s',
    note: `${n} scenarios in ${(ms / 1000).toFixed(1)} s; duplicates + paid twice + unfinished + failing + acked lost + blocked: ${bad}`,
  });
}

export async function sweep(report: Report): Promise<void> {
  await one(report, 'in-process sweep (keys on)', async () => (await import('../src/sweep/inprocess')).inProcessSweep(true));
  await one(report, 'SIGKILL sweep (keys on)', async () => (await import('../src/sweep/kill')).killSweep(true));
  await one(report, 'power-loss sweep (entries undone, keys on)', async () => (await import('../src/sweep/power')).powerSweep('undo', true));
}
