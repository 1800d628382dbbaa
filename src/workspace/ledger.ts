/**
 * The workspace ledger: the SHA-256 of every file the run wrote (state.files, keyed by
 * workspace-relative path with forward slashes), with the written bytes kept in the content
 * store. On resume every recorded file is checked; a changed or missing one stops the run,
 * and there are two ways on: restore the agent's version, or accept the current files (the
 * model is then told what changed: src/agent/notes.ts). Restoring checks each version's SHA-256
 * and refuses paths that go through a symlink out of the workspace (links.ts). With pull
 * requests on, a write in a cause's worktree is recorded the same way, keyed by its absolute
 * path with the worktree in its record (ledger-file.ts), and checked, restored and accepted there.
 */
import * as fsCb from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RunHandle } from '../store/run-handle';
import type { StateEdit } from '../store/state-edit';
import { ABSENT, type FileRecord, type RunState, type WriteRoot } from '../store/state';
import { BadInputError, WorkspaceChangedError, type FileChange } from '../core/errors';
import { isErrno } from '../disk/errno';
import { syncFileDurable, writeFileDurable } from '../disk/durable-write';
import { sha256Hex } from '../core/sha256';
import { ledgerPath } from './ledger-path';
import { storedVersion } from './stored-version';
import { pathStayingInWorkspace } from './links';
import { ledgerFile, ledgerKey } from './ledger-file';

export { sha256Hex } from '../core/sha256';
export { ledgerPath } from './ledger-path';

/** Bytes checkWorkspace reads and hashes between two yields to the event loop (a few milliseconds of work). */
const YIELD_EVERY_BYTES = 2 * 1024 * 1024;

function inWorkspace(workspace: string, relPath: string): string {
  return path.join(workspace, ...ledgerPath(relPath).split('/'));
}

function recordIn(files: Record<string, FileRecord> | undefined, key: string): FileRecord | undefined {
  return files && Object.hasOwn(files, key) ? files[key] : undefined;
}

/**
 * Records a write: puts the bytes in the content store, puts files[relPath] = {sha256,size,callId,writtenAt,before}
 * (saved with the next save). `before` is the file as it was before the run first wrote it: kept from
 * the path's earlier record, else taken from the call's attempt marker (see beforeWrites). `root`:
 * the write was made in a cause's worktree, at `relPath` from its workspace folder.
 */
export async function recordWrite(handle: RunHandle, edit: StateEdit, relPath: string, content: Buffer, callId: string, root?: WriteRoot): Promise<void> {
  const key = ledgerKey(relPath, root);
  const sha256 = await handle.putBlob(content);
  const s = edit.raw;
  const earlier = s.files && Object.hasOwn(s.files, key) ? s.files[key] : undefined;
  const before = earlier ? earlier.before : s.attempts?.[callId]?.before?.[key];
  const rec: FileRecord = { sha256, size: content.length, callId, writtenAt: new Date().toISOString() };
  if (before !== undefined) rec.before = before;
  if (root) rec.worktree = { cause: root.cause, dir: root.dir, path: ledgerPath(relPath) };
  edit.put('files', key, rec);
}

/**
 * Before a call that will write `paths` acts: each path the run has not written yet, as it is
 * now: its bytes into the content store (their SHA-256), or "absent". The loop saves the answer
 * with the call's attempt marker; paths outside the workspace are left out (the tool refuses them).
 * `root`: the paths are in a cause's worktree, relative to its workspace folder (keyed as recordWrite keys them).
 */
export async function beforeWrites(
  handle: RunHandle,
  state: Pick<RunState, 'config' | 'files'>,
  paths: readonly string[],
  root?: WriteRoot,
): Promise<Record<string, string> | undefined> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    let key: string;
    let rel: string;
    try {
      rel = ledgerPath(p);
      key = ledgerKey(rel, root);
    } catch {
      continue;
    }
    if ((state.files && Object.hasOwn(state.files, key)) || Object.hasOwn(out, key)) continue;
    const bytes = await readOrNull(inWorkspace(root ? root.dir : state.config.workspace, rel));
    Object.defineProperty(out, key, { value: bytes === null ? ABSENT : await handle.putBlob(bytes), enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const GONE = ['ENOENT', 'ENOTDIR', 'EISDIR'];

/** A file's bytes, or null when it is missing (or is no longer a file). */
async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (e) {
    if (isErrno(e, ...GONE)) return null;
    throw e;
  }
}

/**
 * SHA-256 of a recorded file now, or null when it is missing. Lean on purpose (there is a
 * benchmark: the check must stay within 1.5x of raw hashing of the same bytes): one open and
 * one synchronous read of size + 1 bytes, since a short read of a regular file is its end.
 * Asynchronous reads cost thread-pool round trips per file and measured about 1.3-1.7x; these
 * stay at about 1.0x, and checkWorkspace yields to the event loop every few megabytes.
 */
function hashRecorded(file: string, rec: FileRecord): string | null {
  let fd: number;
  try {
    fd = fsCb.openSync(file, 'r');
  } catch (e) {
    if (isErrno(e, ...GONE)) return null;
    throw e;
  }
  try {
    const small = Number.isSafeInteger(rec.size) && rec.size >= 0 && rec.size <= 64 * 1024 * 1024;
    if (small) {
      const buf = Buffer.allocUnsafe(rec.size + 1);
      const n = fsCb.readSync(fd, buf, 0, buf.length, 0);
      if (n <= rec.size) return sha256Hex(buf.subarray(0, n));
    }
    return sha256Hex(fsCb.readFileSync(fd));
  } catch (e) {
    if (isErrno(e, ...GONE)) return null;
    throw e;
  } finally {
    fsCb.closeSync(fd);
  }
}

/** Hashes every recorded file (in the workspace, or a cause's worktree); returns the changed and missing ones, by ledger key. */
export async function checkWorkspace(workspace: string, files: Record<string, FileRecord> | undefined): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  let sinceYield = 0;
  for (const [rel, rec] of Object.entries(files ?? {})) {
    const actual = hashRecorded(rec.worktree ? ledgerFile(workspace, rel, rec).file : inWorkspace(workspace, rel), rec);
    if (actual !== rec.sha256) changes.push({ path: rel, expected: rec.sha256, actual });
    sinceYield += rec.size;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Throws WorkspaceChangedError(runId, changes) when checkWorkspace finds any. */
export async function verifyWorkspace(state: RunState): Promise<void> {
  const changes = await checkWorkspace(state.config.workspace, state.files);
  if (changes.length > 0) throw new WorkspaceChangedError(state.runId, changes);
}

function recordOf(state: RunState, change: FileChange): FileRecord {
  const rec = recordIn(state.files, change.path);
  if (!rec) throw new BadInputError(`${change.path} is not a file run ${state.runId} wrote; check the workspace again and retry.`);
  return rec;
}

/**
 * Way on #1: writes the agent's recorded version (from the content store) back over each changed or
 * missing file, durably. Every version is read and checked against its SHA-256, and every path
 * checked for a symlink leading out of the workspace (WorkspaceLinkError), before the first write.
 */
export async function restoreAgentVersion(handle: RunHandle, state: RunState, changes: FileChange[], o: { keepTo?: string } = {}): Promise<string[]> {
  const workspace = state.config.workspace;
  const versions = await Promise.all(
    changes.map(async (c) => {
      const rec = recordOf(state, c);
      const buf = await storedVersion(handle, rec.sha256, `the agent's version of ${c.path}`, 'so it cannot be restored; accept the current files instead');
      return [ledgerFile(workspace, c.path, rec), buf] as const;
    }),
  );
  const targets = versions.map(([at, buf]) => [pathStayingInWorkspace(at.top, at.rel, `Restoring the agent's version of ${at.file}`), buf, at.top] as const);
  handle.assertHeld();
  // The person's versions are copied away first: Restore never loses an edit.
  const kept = o.keepTo ? await keepCurrentVersions(workspace, changes, o.keepTo, state.files) : [];
  for (const [file, buf, top] of targets) {
    // Durable before the run goes on relying on the ledger's hash of it.
    await writeFileDurable(file, buf, { top });
  }
  return kept;
}

/**
 * Copies each changed file that exists now to `keepTo`/<its path> (a file of a cause's worktree:
 * `keepTo`/worktrees/<cause>/<its path there>), durably; returns the keys copied (a deleted file
 * has nothing to keep). `files`: the ledger, for where each file is.
 */
export async function keepCurrentVersions(workspace: string, changes: FileChange[], keepTo: string, files?: Record<string, FileRecord>): Promise<string[]> {
  const kept: string[] = [];
  for (const c of changes) {
    const rec = recordIn(files, c.path);
    const at = ledgerFile(workspace, c.path, rec);
    const now = await readOrNull(pathStayingInWorkspace(at.top, at.rel, `Keeping your version of ${at.file}`));
    if (now === null) continue;
    const keptAs = rec?.worktree ? `worktrees/${rec.worktree.cause.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^\.+/, '_')}/${at.rel}` : at.rel;
    await fs.mkdir(keepTo, { recursive: true, mode: 0o700 });
    await writeFileDurable(inWorkspace(keepTo, keptAs), now, { top: keepTo });
    kept.push(c.path);
  }
  return kept;
}

/** A file accepted as it is now: the agent's version (undefined when the content store lost it) and the current text (null: deleted). */
export interface AcceptedFile {
  /** The workspace-relative path (of a worktree's file: its path in the worktree, with `cause` set). */
  path: string;
  /** Written in this cause's worktree (--pull-requests). */
  cause?: string;
  agentVersion: string | undefined;
  now: string | null;
}

/**
 * Way on #2: accepts the current files. Each changed file is synced (an editor's save is not),
 * its current bytes stored and its hash re-recorded (the record keeps the callId of the agent's
 * write); a missing file leaves the ledger. Returns what changed, for the note the model gets
 * (src/agent/notes.ts); the caller saves the edit afterwards.
 */
export async function acceptCurrentFiles(handle: RunHandle, edit: StateEdit, changes: FileChange[]): Promise<AcceptedFile[]> {
  const state = edit.raw;
  const accepted: AcceptedFile[] = [];
  for (const c of changes) {
    const rec = recordOf(state, c);
    const agentVersion = (await handle.getBlob(rec.sha256))?.toString('utf8');
    const { file, top, rel } = ledgerFile(state.config.workspace, c.path, rec);
    const which = rec.worktree ? { path: rel, cause: rec.worktree.cause } : { path: c.path };
    const now = await readOrNull(file);
    if (now === null) {
      edit.drop('files', c.path);
      accepted.push({ ...which, agentVersion, now: null });
      continue;
    }
    await syncFileDurable(file, { top, always: true }); // the ledger vouches for these bytes from now on
    const sha256 = await handle.putBlob(now);
    edit.put('files', c.path, {
      sha256,
      size: now.length,
      callId: rec.callId,
      writtenAt: new Date().toISOString(),
      ...(rec.before !== undefined ? { before: rec.before } : {}),
      ...(rec.worktree ? { worktree: rec.worktree } : {}),
    });
    accepted.push({ ...which, agentVersion, now: now.toString('utf8') });
  }
  return accepted;
}
