/**
 * This machine's boot: its ID (a different one means every process recorded before was
 * stopped by a reboot) and when it started. Read from the system once; the power-loss sweep
 * replaces the source to model a reboot.
 */
import * as fs from 'node:fs/promises';

export interface Boot {
  /** /proc/sys/kernel/random/boot_id on Linux. */
  id?: string;
  /** When this boot started, in ms since the epoch, rounded down to the second (/proc/stat btime on Linux). */
  startedMs?: number;
}

export type BootSource = () => Promise<Boot>;

async function readLinuxBoot(): Promise<Boot> {
  const b: Boot = {};
  const id = await fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (s) => s.trim(),
    () => '',
  );
  if (id) b.id = id;
  const stat = await fs.readFile('/proc/stat', 'utf8').catch(() => '');
  const btime = /^btime (\d+)$/m.exec(stat);
  if (btime) b.startedMs = Number(btime[1]) * 1000;
  return b;
}

let systemCache: Promise<Boot> | undefined;
const systemBoot: BootSource = () => {
  systemCache ??= process.platform === 'linux' ? readLinuxBoot() : Promise.resolve({});
  return systemCache;
};

let source: BootSource = systemBoot;

/** This machine's boot, as far as it can be known here. */
export function currentBoot(): Promise<Boot> {
  return source();
}

/** Replaces the boot source (undefined: the system's) and returns the one it replaces. */
export function useBootSource(next: BootSource | undefined): BootSource {
  const prev = source;
  source = next ?? systemBoot;
  return prev;
}
