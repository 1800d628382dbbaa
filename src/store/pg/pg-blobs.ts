/**
 * Reading the PostgreSQL content store (triage_blobs): bytes by SHA-256, checked against it.
 * Writes are fenced by a run's lease (pg-run-handle.ts).
 */
import { CorruptCheckpointError } from '../../core/errors';
import { sha256Hex } from '../../core/sha256';
import type { PgDatabase } from './database';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export async function getPgBlob(db: PgDatabase, sha256: string): Promise<Buffer | undefined> {
  if (!SHA256_HEX.test(sha256)) throw new TypeError(`not a SHA-256 hex digest: ${JSON.stringify(sha256)}`);
  const r = await db.query<{ content: Buffer }>('SELECT content FROM triage_blobs WHERE sha256 = $1', [sha256]);
  const buf = r.rows[0]?.content;
  if (buf === undefined) return undefined;
  if (sha256Hex(buf) !== sha256)
    throw new CorruptCheckpointError(`${db.where} (blob ${sha256})`, 'its bytes no longer match the SHA-256 they are stored under');
  return buf;
}
