/**
 * Who is running a worktree's setup step (an install) right now. The step runs in its own
 * process group (run-step.ts), so a life of the run killed mid-install (SIGKILL, a closed
 * laptop, a crashed editor host) leaves the install running on its own. The next life, holding
 * the run's lock, would start a second install in the same folder while the first still writes
 * there. So the step's pid (and, on Linux, its start time, so a reused pid is never taken for
 * it) is written beside the worktree when it starts and removed when it ends; a life that finds
 * the file with that process still alive stops its group first. Only one life holds the run's
 * lock, so a step recorded here and still running is an orphan of a dead life, never a live
 * sibling's.
 */
import * as fs from 'node:fs';
import { z } from 'zod';

const StepOwner = z.strictObject({ pid: z.number().int().positive(), start: z.string().optional() });

/** The process's start time (field 22 of /proc/PID/stat, in clock ticks since boot), where the system has it. */
function startOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The process is there and not a zombie (killed, waiting for a parent that may never reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** A process of the group is still running (on Linux, read from /proc; a zombie is dead, only not reaped); elsewhere, its leader. */
export function groupAlive(pgid: number): boolean {
  if (process.platform !== 'linux') return alive(pgid);
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone while we looked
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

/** Records that `pid` runs the step now. */
export function recordStepOwner(file: string, pid: number): void {
  const start = startOf(pid);
  fs.writeFileSync(file, `${JSON.stringify({ pid, ...(start !== undefined ? { start } : {}) })}\n`);
}

/** The step ended (its process is gone): nobody owns it. */
export function clearStepOwner(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Stops a step an earlier life left running (its whole process group), waiting until its process
 * is gone, and forgets it. Returns its pid when there was one to stop. A torn or foreign file, or
 * a pid now another program's, is only forgotten.
 */
export async function stopOrphanedStep(file: string, waitMs = 10_000): Promise<number | undefined> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let owner: z.infer<typeof StepOwner> | undefined;
  try {
    const r = StepOwner.safeParse(JSON.parse(text));
    owner = r.success ? r.data : undefined;
  } catch {
    owner = undefined;
  }
  clearStepOwner(file);
  if (!owner || !alive(owner.pid)) return undefined;
  if (owner.start !== undefined && startOf(owner.pid) !== owner.start) return undefined; // the pid was reused
  try {
    process.kill(process.platform === 'win32' ? owner.pid : -owner.pid, 'SIGKILL');
  } catch {
    return undefined; // gone just now, or not a group leader of ours
  }
  // SIGKILL cannot be caught: each process of the group is gone once the kernel has delivered it.
  const until = Date.now() + waitMs;
  while (groupAlive(owner.pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return owner.pid;
}
