/**
 * The floor for a save: raw fs calls doing only the I/O a save needs for the same bytes, with
 * the same API the store uses (fs/promises) and none of its work (no encoding, no checks).
 * - an append: write the record, fdatasync (the directory fsynced once, when the file is created);
 * - a compaction: temp file (0600, exclusive), write, fsync, close, rename, directory fsync,
 *   then truncate the journal and fdatasync it.
 * `kept`: the journal stays open between saves, as the store keeps it. `open`: it is opened and
 * closed around every append (open-append-write-fsync-close), the floor as the brief words it.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export interface SaveOp {
  kind: 'append' | 'compaction';
  bytes: Buffer;
}

export class FloorWriter {
  private fh: fs.FileHandle | undefined;
  private created = false;
  private n = 0;

  constructor(
    private readonly dir: string,
    private readonly mode: 'kept' | 'open',
  ) {}

  private get journal(): string {
    return path.join(this.dir, 'floor.jsonl');
  }

  async apply(op: SaveOp): Promise<void> {
    if (op.kind === 'append') await this.append(op.bytes);
    else await this.compact(op.bytes);
  }

  private async append(b: Buffer): Promise<void> {
    const first = !this.created;
    const fh = this.mode === 'kept' ? (this.fh ??= await fs.open(this.journal, 'a', 0o600)) : await fs.open(this.journal, 'a', 0o600);
    await fh.write(b, 0, b.length);
    await fh.datasync();
    if (this.mode === 'open') await fh.close();
    if (first) {
      this.created = true;
      const d = await fs.open(this.dir, 'r');
      await d.sync();
      await d.close();
    }
  }

  private async compact(b: Buffer): Promise<void> {
    const tmp = path.join(this.dir, `.floor.json.${this.n++}.tmp`);
    const fh = await fs.open(tmp, 'wx', 0o600);
    await fh.writeFile(b);
    await fh.sync();
    await fh.close();
    await fs.rename(tmp, path.join(this.dir, 'floor.json'));
    const d = await fs.open(this.dir, 'r');
    await d.sync();
    await d.close();
    if (!this.created) return;
    const j = this.mode === 'kept' ? this.fh! : await fs.open(this.journal, 'r+');
    await j.truncate(0);
    await j.datasync();
    if (this.mode === 'open') await j.close();
  }

  async close(): Promise<void> {
    await this.fh?.close();
    this.fh = undefined;
  }
}
