/**
 * Idempotency keys and run IDs. The key is the chapter's formula: SHA-256 over the
 * length-prefixed run ID and call ID ("<bytes>:<text>" each), first 16 bytes in hex.
 * The call ID was saved with its reply (save point 2) before the call ran, so every
 * retry of one call, in any process, sends the same key, and no other call gets it.
 */
import { createHash, randomInt } from 'node:crypto';

export function idempotencyKey(runId: string, callId: string): string {
  const h = createHash('sha256');
  for (const s of [runId, callId]) {
    const b = Buffer.from(s, 'utf8');
    h.update(`${b.length}:`);
    h.update(b);
  }
  return h.digest().subarray(0, 16).toString('hex');
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** "<task>-<YYYYMMDDTHHMMSSZ>-<8 random [a-z0-9]>". The store refuses to create a run ID twice. */
export function newRunId(task: string, now: Date = new Date()): string {
  const t = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let r = '';
  for (let i = 0; i < 8; i++) r += ALPHABET[randomInt(ALPHABET.length)];
  const safeTask = task.replace(/[^A-Za-z0-9_-]/g, '-') || 'run';
  return `${safeTask}-${t}-${r}`;
}
