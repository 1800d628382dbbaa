/**
 * A model of what a folder tree on disk holds after a power cut, fed with every change made
 * in it (trace-io.ts). Each file and folder is a node (an inode): a file has the bytes a
 * reader sees now (volatile) and the bytes last made durable by fsync/fdatasync; a folder
 * has the entries a reader sees now and the entries last made durable by fsyncing it. A
 * rename moves the node, so a file renamed into place carries its own durable bytes.
 *
 * What survives a cut, two ways (CutModel):
 * - 'undo': unsynced bytes are lost and unsynced folder entries are undone: an entry made,
 *   renamed or removed survives only if its folder was fsynced after; a file holds only what
 *   was synced. The least a POSIX file system promises.
 * - 'keep': every folder entry change survives, in order (a file system that journals its
 *   metadata, as ext4 and XFS do), but file bytes only as far as they were synced, and a
 *   file cut shorter since its last sync (O_TRUNC, truncate) stays cut: the zero-length file
 *   after a crash. Any state between the two, for metadata written in order, is the 'keep'
 *   state of an earlier cut.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type CutModel = 'undo' | 'keep';

interface FileNode {
  kind: 'file';
  data: Buffer;
  durable: Buffer;
  /** The smallest size since the last sync: under 'keep', only this much of `durable` survives. */
  kept: number;
  mode: number;
}

interface DirNode {
  kind: 'dir';
  entries: Map<string, DiskNode>;
  durable: Map<string, DiskNode>;
  mode: number;
}

interface LinkNode {
  kind: 'link';
  target: string;
}

type DiskNode = FileNode | DirNode | LinkNode;

/** A node as it survives: what a rebuild writes. */
export type SurvivingNode =
  { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'dir'; entries: Map<string, SurvivingNode>; mode: number } | { kind: 'link'; target: string };

/** An inconsistency between the model and the operation it was told about: a bug in the tracing, never a user's error. */
export class DiskModelError extends Error {
  constructor(message: string) {
    super(`disk model: ${message}`);
    this.name = 'DiskModelError';
  }
}

function scanNode(p: string): DiskNode {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return { kind: 'link', target: fs.readlinkSync(p) };
  if (st.isDirectory()) {
    const entries = new Map<string, DiskNode>();
    for (const name of fs.readdirSync(p).sort()) entries.set(name, scanNode(path.join(p, name)));
    return { kind: 'dir', entries, durable: new Map(entries), mode: st.mode & 0o7777 };
  }
  if (!st.isFile()) throw new DiskModelError(`${p} is neither a file, a folder nor a symlink`);
  const data = fs.readFileSync(p);
  return { kind: 'file', data, durable: data, kept: data.length, mode: st.mode & 0o7777 };
}

export class DiskModel {
  private readonly tree: DirNode;

  /** Models the tree under `root` as it is on disk now, all of it durable (as after a reboot). */
  constructor(readonly root: string) {
    this.root = path.resolve(root);
    const top = scanNode(this.root);
    if (top.kind !== 'dir') throw new DiskModelError(`${this.root} is not a folder`);
    this.tree = top;
  }

  /** True when `p` is the root or below it. */
  covers(p: string): boolean {
    const rel = path.relative(this.root, path.resolve(p));
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
  }

  private parts(p: string): string[] {
    if (!this.covers(p)) throw new DiskModelError(`${p} is outside ${this.root}`);
    return path
      .relative(this.root, path.resolve(p))
      .split(path.sep)
      .filter((s) => s !== '');
  }

  private find(p: string): DiskNode | undefined {
    let n: DiskNode = this.tree;
    for (const part of this.parts(p)) {
      if (n.kind !== 'dir') throw new DiskModelError(`${p}: a path through ${n.kind === 'link' ? 'a symlink' : 'a file'}`);
      const next = n.entries.get(part);
      if (next === undefined) return undefined;
      n = next;
    }
    return n;
  }

  /** The folder holding `p`, and p's name in it. */
  private slot(p: string): { dir: DirNode; name: string } {
    const parts = this.parts(p);
    const name = parts.pop();
    if (name === undefined) throw new DiskModelError(`the root ${this.root} itself cannot be made, moved or removed`);
    const dir = this.find(path.join(this.root, ...parts));
    if (dir?.kind !== 'dir') throw new DiskModelError(`${path.dirname(p)} is not a folder the model knows (something changed it without the I/O layer)`);
    return { dir, name };
  }

  private file(p: string): FileNode {
    const n = this.find(p);
    if (n?.kind !== 'file') throw new DiskModelError(`${p} is not a file the model knows (something made it without the I/O layer)`);
    return n;
  }

  private dir(p: string): DirNode {
    const n = this.find(p);
    if (n?.kind !== 'dir') throw new DiskModelError(`${p} is not a folder the model knows (something made it without the I/O layer)`);
    return n;
  }

  exists(p: string): boolean {
    return this.find(p) !== undefined;
  }

  /** A new empty file at `p` (open with 'w', 'wx' or 'a' of a missing file); returns its node's handle. */
  create(p: string, mode: number): FileRef {
    const { dir, name } = this.slot(p);
    if (dir.entries.has(name)) throw new DiskModelError(`${p} already exists`);
    const node: FileNode = { kind: 'file', data: Buffer.alloc(0), durable: Buffer.alloc(0), kept: 0, mode };
    dir.entries.set(name, node);
    return new FileRef(node);
  }

  /** The existing file at `p`, for an open that neither creates nor truncates. */
  openExisting(p: string): FileRef {
    return new FileRef(this.file(p));
  }

  mkdir(p: string, mode: number): void {
    const { dir, name } = this.slot(p);
    if (dir.entries.has(name)) throw new DiskModelError(`${p} already exists`);
    dir.entries.set(name, { kind: 'dir', entries: new Map(), durable: new Map(), mode });
  }

  symlink(target: string, p: string): void {
    const { dir, name } = this.slot(p);
    if (dir.entries.has(name)) throw new DiskModelError(`${p} already exists`);
    dir.entries.set(name, { kind: 'link', target });
  }

  rename(from: string, to: string): void {
    const a = this.slot(from);
    const node = a.dir.entries.get(a.name);
    if (node === undefined) throw new DiskModelError(`${from} does not exist`);
    const b = this.slot(to);
    a.dir.entries.delete(a.name);
    b.dir.entries.set(b.name, node);
  }

  /** Removes the entry `p` (a file, or a whole folder). */
  remove(p: string): void {
    const { dir, name } = this.slot(p);
    if (!dir.entries.delete(name)) throw new DiskModelError(`${p} does not exist`);
  }

  chmod(p: string, mode: number): void {
    const n = this.find(p);
    if (n !== undefined && n.kind !== 'link') n.mode = mode & 0o7777;
  }

  /** fsync of a folder: its entries as they are now are durable. */
  syncDir(p: string): void {
    const d = this.dir(p);
    d.durable = new Map(d.entries);
  }

  /** What the tree holds after a power cut now. */
  survivors(how: CutModel): SurvivingNode {
    return surviving(this.tree, how);
  }

  /** Differences between the tree on disk and what the model says a reader sees: empty when every change went through the model. */
  differences(): string[] {
    const out: string[] = [];
    compare(this.root, this.tree, out);
    return out;
  }
}

/** An open file's node: its writes, truncations and syncs. */
export class FileRef {
  constructor(private readonly node: FileNode) {}

  get size(): number {
    return this.node.data.length;
  }

  write(at: number, buf: Buffer): void {
    const n = this.node;
    const end = at + buf.length;
    const data = end > n.data.length ? Buffer.concat([n.data, Buffer.alloc(end - n.data.length)]) : Buffer.from(n.data);
    buf.copy(data, at);
    n.data = data;
  }

  truncate(length: number): void {
    const n = this.node;
    n.data = length <= n.data.length ? n.data.subarray(0, length) : Buffer.concat([n.data, Buffer.alloc(length - n.data.length)]);
    n.kept = Math.min(n.kept, length);
  }

  sync(): void {
    const n = this.node;
    n.durable = Buffer.from(n.data);
    n.kept = n.durable.length;
  }
}

function surviving(n: DiskNode, how: CutModel): SurvivingNode {
  if (n.kind === 'link') return { kind: 'link', target: n.target };
  if (n.kind === 'file') {
    const bytes = how === 'undo' ? n.durable : n.durable.subarray(0, Math.min(n.kept, n.durable.length));
    return { kind: 'file', bytes: Buffer.from(bytes), mode: n.mode };
  }
  const entries = new Map<string, SurvivingNode>();
  for (const [name, child] of how === 'undo' ? n.durable : n.entries) entries.set(name, surviving(child, how));
  return { kind: 'dir', entries, mode: n.mode };
}

function compare(p: string, n: DiskNode, out: string[]): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    out.push(`${p}: in the model, not on disk`);
    return;
  }
  if (n.kind === 'link') {
    if (!st.isSymbolicLink() || fs.readlinkSync(p) !== n.target) out.push(`${p}: a different symlink on disk`);
    return;
  }
  if (n.kind === 'file') {
    if (!st.isFile() || !fs.readFileSync(p).equals(n.data)) out.push(`${p}: different bytes on disk`);
    return;
  }
  if (!st.isDirectory()) {
    out.push(`${p}: not a folder on disk`);
    return;
  }
  const onDisk = new Set(fs.readdirSync(p));
  for (const [name, child] of n.entries) {
    onDisk.delete(name);
    compare(path.join(p, name), child, out);
  }
  for (const name of onDisk) out.push(`${path.join(p, name)}: on disk, not in the model`);
}

/**
 * Replaces what is under `root` on disk with `tree` (the survivors of a cut): the disk as it is
 * after the reboot. Every file and folder written gets `mtime` (a time before the reboot).
 */
export function rebuild(root: string, tree: SurvivingNode, mtime: Date): void {
  if (tree.kind !== 'dir') throw new DiskModelError('the root must be a folder');
  for (const name of fs.readdirSync(root)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  for (const [name, child] of tree.entries) writeNode(path.join(root, name), child, mtime);
}

function writeNode(p: string, n: SurvivingNode, mtime: Date): void {
  if (n.kind === 'link') {
    fs.symlinkSync(n.target, p);
    return;
  }
  if (n.kind === 'file') fs.writeFileSync(p, n.bytes, { mode: n.mode });
  else {
    fs.mkdirSync(p, { mode: 0o700 });
    for (const [name, child] of n.entries) writeNode(path.join(p, name), child, mtime);
  }
  fs.chmodSync(p, n.mode);
  fs.utimesSync(p, mtime, mtime);
}
