// The process tree under code-server, read from /proc: finds extension hosts to kill.
import * as fs from 'node:fs';

interface ProcInfo {
  pid: number;
  ppid: number;
  startTicks: number;
  cmdline: string;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: parse after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    if (state === 'Z' || state === 'X') return undefined; // a zombie has exited
    const ppid = Number(rest[1]);
    const startTicks = Number(rest[19]); // field 22, starttime
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid, startTicks, cmdline };
  } catch {
    return undefined; // gone while we looked
  }
}

function allProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) out.push(p);
  }
  return out;
}

/** All live descendants of root (not root itself). */
export function descendants(root: number): ProcInfo[] {
  const procs = allProcs();
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const out: ProcInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

/** Pids of the extension host processes under root, oldest first. */
export function extensionHostPids(root: number): number[] {
  return descendants(root)
    .filter((p) => p.cmdline.includes('--type=extensionHost') || /\bextensionHost\b/.test(p.cmdline))
    .sort((a, b) => a.startTicks - b.startTicks)
    .map((p) => p.pid);
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  return readProc(pid) !== undefined;
}
