/**
 * Filing an issue for another agent exactly once (`triage mcp`'s triage_file_issue, the editor's
 * Language Model Tool): the caller's idempotency key (MCP: `_meta["io.durabletriage/idempotency-key"]`)
 * or, without one, a key derived from the arguments. The same key returns the first filing's
 * issue and files nothing new. The tracker is asked by key first (a tracker that keeps no keys,
 * GitHub, finds the key in the issue's hidden marker), then the issue is filed with the key, and
 * a tracker that honours keys (the embedded one) replays a filing that raced in between.
 * Callers' keys are namespaced ("mcp-" + key), so one can never name a run's own filing.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Tracker } from '../tracker/tracker';
import type { TrackerIssue } from '../tracker/store';
import { LIMITS } from '../tracker/input';

/** The `_meta` field an MCP caller puts its idempotency key in. */
export const IDEMPOTENCY_META_KEY = 'io.durabletriage/idempotency-key';

const PREFIX = 'mcp-';

/** A caller's key: visible ASCII, short enough for the tracker's Idempotency-Key header once prefixed. */
export const CallerKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]+$/, { error: 'an idempotency key is visible ASCII characters (no spaces)' })
  .min(1)
  .max(LIMITS.header - PREFIX.length);

export const FileIssueArgsShape = {
  title: z.string().min(1).max(LIMITS.title).describe('What goes wrong, in one line'),
  body: z.string().min(1).max(LIMITS.body).describe('Details: the crash reports, the cause, the fix'),
  cause: z.string().min(1).max(LIMITS.cause).describe("The crash group's cause slug"),
  workspace: z.string().min(1).max(LIMITS.workspace).optional().describe('The workspace the issue is about (the tracker scopes its refile guard by it)'),
};
export const FileIssueArgsSchema = z.strictObject(FileIssueArgsShape);
export type FileIssueArgs = z.infer<typeof FileIssueArgsSchema>;

/** The key a filing is made under: the caller's, namespaced, or one derived from the tracker and the arguments. */
export function filingKey(args: FileIssueArgs, trackerName: string, callerKey?: string): { key: string; derived: boolean } {
  if (callerKey !== undefined) return { key: PREFIX + CallerKeySchema.parse(callerKey), derived: false };
  const h = createHash('sha256');
  for (const s of [trackerName, args.workspace ?? '', args.cause, args.title, args.body]) {
    const b = Buffer.from(s, 'utf8');
    h.update(`${b.length}:`);
    h.update(b);
  }
  return { key: PREFIX + 'derived-' + h.digest().subarray(0, 16).toString('hex'), derived: true };
}

export interface FiledOnce {
  issue: TrackerIssue;
  key: string;
  derivedKey: boolean;
  /** An earlier call with this key filed it: nothing new was filed now. */
  replayed: boolean;
}

/** Files once per key. Calls with the same key in this process wait for each other (in-flight map). */
export class OnceFiler {
  private readonly inFlight = new Map<string, Promise<FiledOnce>>();

  /** `trackerId`: the tracker as the caller named it ("embedded", "github:o/r", a URL), stable across calls (an embedded tracker's URL is not). */
  async file(tracker: Tracker, trackerId: string, args: FileIssueArgs, callerKey?: string, signal?: AbortSignal): Promise<FiledOnce> {
    const { key, derived } = filingKey(args, trackerId, callerKey);
    const slot = `${trackerId}\n${key}`;
    const before = this.inFlight.get(slot);
    if (before) {
      const first = await before.catch(() => undefined);
      if (first) return { ...first, replayed: true };
    }
    const p = fileOnce(tracker, args, key, derived, signal);
    this.inFlight.set(slot, p);
    try {
      return await p;
    } finally {
      if (this.inFlight.get(slot) === p) this.inFlight.delete(slot);
    }
  }
}

async function fileOnce(tracker: Tracker, args: FileIssueArgs, key: string, derived: boolean, signal?: AbortSignal): Promise<FiledOnce> {
  const known = await tracker.byKey(key, signal);
  if (known) return { issue: known, key, derivedKey: derived, replayed: true };
  const { title, body, cause } = args;
  const filed = await tracker.fileIssue(
    { title, body, cause },
    { key, ...(args.workspace ? { workspace: args.workspace } : {}), ...(signal ? { signal } : {}) },
  );
  return { issue: filed.issue, key, derivedKey: derived, replayed: filed.replayed };
}
