/**
 * The SHA-256 of some bytes, as 64 lowercase hex digits: the name a blob is kept under in either
 * store, and what a workspace file's version is checked against.
 */
import { createHash } from 'node:crypto';

export function sha256Hex(buf: Buffer | string): string {
  return createHash('sha256').update(buf).digest('hex');
}
