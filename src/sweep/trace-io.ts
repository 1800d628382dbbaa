/**
 * The power-loss sweep's I/O layer: every change is made on the real disk (through node's fs,
 * with its fsyncs skipped: the model decides what a sync makes durable) and told to a
 * DiskModel when it lands under the model's root. Each such change is one operation; with
 * `cutAfter` set, the power is cut right after that operation: it throws SimulatedCrash, and
 * every later change under the root throws too, as nothing reaches a disk without power.
 * Changes outside the root (the tracker, a separate machine that kept its power) go on.
 * Closing a file always closes it for real.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SimulatedCrash } from './simulated-crash';
import { isErrno } from '../disk/errno';
import { nodeIo, type Io, type IoFile, type OpenFlags } from '../disk/io';
import type { DiskModel, FileRef } from './disk-model';

export interface TraceOptions {
  /** Cut the power right after this operation (1-based); none: never. */
  cutAfter?: number;
  /** Kill the process right after this operation (1-based): it makes no more changes, but the disk keeps all it was told (the page cache survives). */
  killAfter?: number;
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return false;
    throw e;
  }
}

function modeOf(p: string): number {
  return fs.statSync(p).mode & 0o7777;
}

export class TraceIo implements Io {
  private readonly base = nodeIo({ syncs: false });
  /** Operations under the root so far, each described ("fsync runs/x.jsonl"). */
  readonly ops: string[] = [];
  private readonly cutAfter: number | undefined;
  private readonly killAfter: number | undefined;
  private off = false;
  private dead = false;

  constructor(
    private readonly model: DiskModel,
    o: TraceOptions = {},
  ) {
    this.cutAfter = o.cutAfter;
    this.killAfter = o.killAfter;
  }

  /** True once the process was killed. */
  get killed(): boolean {
    return this.dead;
  }

  /** True once the power was cut. */
  get powerCut(): boolean {
    return this.off;
  }

  private rel(p: string): string {
    return path.relative(this.model.root, path.resolve(p)) || '.';
  }

  /** Cuts the power now. */
  cutNow(): void {
    this.off = true;
  }

  /** Before a change under the root: nothing happens once the power is off or the process killed. */
  private live(what: string): void {
    if (this.off) throw new SimulatedCrash(`power off: ${what}`);
    if (this.dead) throw new SimulatedCrash(`process killed: ${what}`);
  }

  /** After a change under the root: counts it, and cuts the power or kills the process if this is the chosen one. */
  private done(what: string): void {
    this.ops.push(what);
    if (this.ops.length === this.cutAfter) {
      this.off = true;
      throw new SimulatedCrash(`power cut after operation ${this.ops.length}: ${what}`);
    }
    if (this.ops.length === this.killAfter) {
      this.dead = true;
      throw new SimulatedCrash(`process killed after operation ${this.ops.length}: ${what}`);
    }
  }

  async open(file: string, flags: OpenFlags, mode?: number): Promise<IoFile> {
    if (!this.model.covers(file)) return this.base.open(file, flags, mode);
    this.live(`open ${this.rel(file)}`);
    const existed = exists(file);
    const real = await this.base.open(file, flags, mode);
    let ref: FileRef;
    let op: string | undefined;
    try {
      if (!existed) {
        ref = this.model.create(file, modeOf(file));
        op = `create ${this.rel(file)}`;
      } else {
        ref = this.model.openExisting(file);
        if (flags === 'w') {
          ref.truncate(0);
          op = `open ${this.rel(file)} (truncated)`;
        }
      }
    } catch (e) {
      await real.close();
      throw e;
    }
    const traced = new TracedFile(this, real, ref, this.rel(file), flags === 'a');
    if (op !== undefined) {
      try {
        this.done(op);
      } catch (e) {
        await real.close();
        throw e;
      }
    }
    return traced;
  }

  /** A change to an open file under the root: made for real, told to the model, counted. */
  async fileOp(what: string, real: () => Promise<void>, model: () => void): Promise<void> {
    this.live(what);
    await real();
    model();
    this.done(what);
  }

  async mkdir(dir: string, mode?: number): Promise<void> {
    if (!this.model.covers(dir)) return this.base.mkdir(dir, mode);
    const what = `mkdir ${this.rel(dir)}`;
    this.live(what);
    await this.base.mkdir(dir, mode);
    this.model.mkdir(dir, modeOf(dir));
    this.done(what);
  }

  async rename(from: string, to: string): Promise<void> {
    const inFrom = this.model.covers(from);
    if (inFrom !== this.model.covers(to)) throw new Error(`trace-io: a rename across the modelled root (${from} -> ${to})`);
    if (!inFrom) return this.base.rename(from, to);
    const what = `rename ${this.rel(from)} -> ${this.rel(to)}`;
    this.live(what);
    await this.base.rename(from, to);
    this.model.rename(from, to);
    this.done(what);
  }

  async unlink(file: string): Promise<void> {
    if (!this.model.covers(file)) return this.base.unlink(file);
    const what = `unlink ${this.rel(file)}`;
    this.live(what);
    await this.base.unlink(file);
    this.model.remove(file);
    this.done(what);
  }

  async rm(p: string, o: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    if (!this.model.covers(p)) return this.base.rm(p, o);
    const what = `rm ${this.rel(p)}`;
    this.live(what);
    const existed = exists(p);
    await this.base.rm(p, o);
    if (!existed) return; // force, and nothing there: nothing changed
    this.model.remove(p);
    this.done(what);
  }

  async symlink(target: string, p: string): Promise<void> {
    if (!this.model.covers(p)) return this.base.symlink(target, p);
    const what = `symlink ${this.rel(p)}`;
    this.live(what);
    await this.base.symlink(target, p);
    this.model.symlink(target, p);
    this.done(what);
  }

  async chmod(p: string, mode: number): Promise<void> {
    if (!this.model.covers(p)) return this.base.chmod(p, mode);
    this.live(`chmod ${this.rel(p)}`);
    await this.base.chmod(p, mode);
    this.model.chmod(p, mode);
  }

  async syncDir(dir: string): Promise<void> {
    if (!this.model.covers(dir)) return; // outside the model: its durability is not what is measured
    const what = `fsync folder ${this.rel(dir)}`;
    this.live(what);
    this.model.syncDir(dir);
    this.done(what);
  }
}

class TracedFile implements IoFile {
  private pos = 0;

  constructor(
    private readonly io: TraceIo,
    private readonly real: IoFile,
    private readonly ref: FileRef,
    private readonly rel: string,
    private readonly append: boolean,
  ) {}

  write(buf: Buffer): Promise<void> {
    return this.io.fileOp(
      `write ${buf.length} bytes to ${this.rel}`,
      () => this.real.write(buf),
      () => {
        const at = this.append ? this.ref.size : this.pos;
        this.ref.write(at, buf);
        this.pos = at + buf.length;
      },
    );
  }

  truncate(length: number): Promise<void> {
    return this.io.fileOp(
      `truncate ${this.rel} to ${length}`,
      () => this.real.truncate(length),
      () => this.ref.truncate(length),
    );
  }

  sync(): Promise<void> {
    return this.io.fileOp(
      `fsync ${this.rel}`,
      async () => undefined,
      () => this.ref.sync(),
    );
  }

  datasync(): Promise<void> {
    return this.io.fileOp(
      `fdatasync ${this.rel}`,
      async () => undefined,
      () => this.ref.sync(),
    );
  }

  close(): Promise<void> {
    return this.real.close();
  }
}
