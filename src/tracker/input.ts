/**
 * Checking what a client sends the tracker: the JSON body of a filing (a zod schema) and its headers.
 * Every problem is a RequestError the service answers with its status and message.
 */
import { z } from 'zod';
import type { NewIssue } from './store';

export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export const LIMITS = { title: 300, body: 200_000, cause: 200, header: 255, workspace: 4096, requestBytes: 1_000_000 };

/** A filing's body: exactly these fields, each a non-empty string within its limit. */
export const NewIssueSchema = z.strictObject({
  title: issueText('title'),
  body: issueText('body'),
  cause: issueText('cause'),
});

function issueText(f: 'title' | 'body' | 'cause') {
  return z
    .string({ error: (iss) => (iss.input === undefined ? `field "${f}" is missing` : `field "${f}" should be a string`) })
    .refine((v) => v.trim() !== '', { error: `field "${f}" is empty` })
    .refine((v) => v.length <= LIMITS[f], { error: (iss) => `field "${f}" is ${(iss.input as string).length} characters; at most ${LIMITS[f]}` });
}

export function parseNewIssue(text: string): NewIssue {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RequestError(400, `the body is not valid JSON (${(e as Error).message}); send {"title", "body", "cause"}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RequestError(400, 'the body should be a JSON object {"title", "body", "cause"}');
  const r = NewIssueSchema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    throw new RequestError(400, `unknown field "${issue.keys[0]}"; an issue has title, body and cause (keys travel in the Idempotency-Key header)`);
  }
  throw new RequestError(400, issue.message);
}

/** A header's value, checked: 1-255 visible ASCII characters; undefined when absent. */
export function tokenHeader(name: string, v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new RequestError(400, `send one ${name} header, not ${v.length}`);
  if (v.length === 0 || v.length > LIMITS.header || !/^[\x21-\x7e]+$/.test(v)) {
    throw new RequestError(400, `the ${name} header should be 1 to ${LIMITS.header} visible ASCII characters`);
  }
  return v;
}

/**
 * The X-Triage-Workspace header: the workspace's path, percent-encoded (paths may hold any
 * character); undefined when absent.
 */
export function workspaceHeader(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new RequestError(400, `send one X-Triage-Workspace header, not ${v.length}`);
  let p: string;
  try {
    p = decodeURIComponent(v);
  } catch {
    throw new RequestError(400, 'the X-Triage-Workspace header should be a percent-encoded path');
  }
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (p.length === 0 || p.length > LIMITS.workspace || /[\x00-\x1f]/.test(p)) {
    throw new RequestError(400, `the X-Triage-Workspace header should be a path of 1 to ${LIMITS.workspace} characters without control characters`);
  }
  return p;
}
