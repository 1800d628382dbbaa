/**
 * A file's version from the content store, for writing it back into the workspace (Restore, Undo):
 * its bytes are checked against the SHA-256 they are kept under first, whatever the store (the
 * PostgreSQL store hands bytes back unchecked). Missing or not matching: a CorruptCheckpointError
 * that names the workspace file, before anything is written.
 */
import * as path from 'node:path';
import type { RunHandle } from '../store/run-handle';
import { CorruptCheckpointError } from '../core/errors';
import { sha256Hex } from '../core/sha256';

/** `what`: "the agent's version of src/a.js"; `otherwise`: what that means for the person ("so it cannot be restored; ..."). */
export async function storedVersion(handle: RunHandle, sha256: string, what: string, otherwise: string): Promise<Buffer> {
  const where = path.join(handle.location, 'blobs', sha256);
  const corrupt = new CorruptCheckpointError(
    where,
    `${what} in the content store no longer matches the SHA-256 it is kept under (${sha256.slice(0, 12)}), ${otherwise}`,
  );
  let buf: Buffer | undefined;
  try {
    buf = await handle.getBlob(sha256);
  } catch (e) {
    if (e instanceof CorruptCheckpointError) throw corrupt;
    throw e;
  }
  if (buf === undefined) throw new CorruptCheckpointError(where, `${what} is missing from the content store, ${otherwise}`);
  if (sha256Hex(buf) !== sha256) throw corrupt;
  return buf;
}
