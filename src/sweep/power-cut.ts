/**
 * A folder tree whose power can be cut: each life of a process runs with the tracing I/O
 * layer installed (trace-io.ts) and this machine's boot ID; when the power is cut (after a
 * chosen operation, or by cut() at a moment a test picks), the tree on disk is replaced by
 * what survives (disk-model.ts) and the next life runs after a reboot (a new boot ID), as a
 * new process (nothing it knew is known any more).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Io } from '../disk/io';
import { useIo } from '../disk/io';
import { DiskModel, DiskModelError, rebuild, type CutModel } from './disk-model';
import { TraceIo, type TraceOptions } from './trace-io';
import { useBootSource } from '../disk/boot';
import { OWNER_FILE } from '../disk/lock-owner';
import { forgetDurableDirs } from '../disk/durable-dirs';

export interface Life<T> {
  /** The life's result, when it ended without an error. */
  value?: T;
  /** What it threw (a SimulatedCrash when the power was cut under it). */
  error?: unknown;
  /** True when the power was cut during this life (the disk now holds what survived). */
  cut: boolean;
  /** The operations it made under the root, in order. */
  ops: string[];
}

/** Handed to a life: lets a test cut the power at a moment it picks. */
export interface Power {
  /** Cuts the power now: every later change under the root throws SimulatedCrash. */
  cut(): void;
}

export class PowerCutDisk {
  private model: DiskModel;
  private boot = 1;
  /** When this machine's current boot started: before anything the next life makes, after everything a rebuild wrote. */
  private bootStartedMs = Date.now() - 1000;

  /** `root` must exist; what is under it now counts as durable. */
  constructor(
    readonly root: string,
    readonly how: CutModel,
  ) {
    this.model = new DiskModel(root);
  }

  /** The boot ID this machine has now (it changes with every cut). */
  get bootId(): string {
    return `power-cut-boot-${this.boot}`;
  }

  /**
   * Runs one life of a process: `work` runs with the tracing I/O layer, the power cut after
   * operation `end.cutAfter` (if given) or when `work` calls power.cut(), or the process killed
   * after operation `end.killAfter` (the disk keeps everything). Afterwards the tree on
   * disk must be what the model says a reader sees (else something changed it without the I/O
   * layer, a DiskModelError); if the power was cut, the disk is replaced by what survived.
   */
  async life<T>(work: (power: Power) => Promise<T>, end: TraceOptions = {}): Promise<Life<T>> {
    const trace = new TraceIo(this.model, end);
    forgetDurableDirs(); // a new process knows nothing yet
    const prevIo: Io = useIo(trace);
    const boot = { id: this.bootId, startedMs: this.bootStartedMs };
    const prevBoot = useBootSource(async () => boot);
    const out: Life<T> = { cut: false, ops: trace.ops };
    try {
      out.value = await work({ cut: () => trace.cutNow() });
    } catch (e) {
      out.error = e;
    } finally {
      useIo(prevIo);
      useBootSource(prevBoot);
    }
    const diff = this.model.differences();
    if (diff.length > 0) throw new DiskModelError(`changes made without the I/O layer:\n  ${diff.slice(0, 10).join('\n  ')}`);
    if (trace.killed) this.reapLocks(this.root);
    if (trace.powerCut) {
      out.cut = true;
      // What the disk holds dates from before the reboot; the new boot starts after it, and before anything the next life makes.
      const now = Date.now();
      rebuild(this.root, this.model.survivors(this.how), new Date(now - 1000));
      this.model = new DiskModel(this.root);
      this.boot++;
      this.bootStartedMs = now - 500;
    }
    return out;
  }

  /**
   * A killed process's locks: in this one process its pid lives on, so the next life would
   * take them for a live owner's. A real next process finds the pid dead and removes them (an
   * unsynced removal); so does this, on disk and in the model.
   */
  private reapLocks(dir: string): void {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = path.join(dir, e.name);
      if (e.name.endsWith('.lock')) {
        const pid = ownerPid(path.join(p, OWNER_FILE));
        if (pid === undefined || pid === process.pid) {
          fs.rmSync(p, { recursive: true, force: true });
          this.model.remove(p);
        }
      } else this.reapLocks(p);
    }
  }
}

/** The pid in an owner record, or undefined when there is none or it cannot be read. */
function ownerPid(file: string): number | undefined {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number }).pid;
  } catch {
    return undefined;
  }
}
