/**
 * Checking what a client sends the tracker: the JSON body of a filing and the two headers.
 * Every problem is a RequestError the service answers with its status and message.
 */
import type { NewIssue } from './store';

export class RequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'RequestError';
  }
}

export const LIMITS = { title: 300, body: 200_000, cause: 200, header: 255, workspace: 4096, requestBytes: 1_000_000 };

const FIELDS = ['title', 'body', 'cause'] as const;

export function parseNewIssue(text: string): NewIssue {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RequestError(400, `the body is not valid JSON (${(e as Error).message}); send {"title", "body", "cause"}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RequestError(400, 'the body should be a JSON object {"title", "body", "cause"}');
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(FIELDS as readonly string[]).includes(k)) throw new RequestError(400, `unknown field "${k}"; an issue has title, body and cause (keys travel in the Idempotency-Key header)`);
  }
  for (const f of FIELDS) {
    const v = o[f];
    if (v === undefined) throw new RequestError(400, `field "${f}" is missing`);
    if (typeof v !== 'string') throw new RequestError(400, `field "${f}" should be a string`);
    if (v.trim() === '') throw new RequestError(400, `field "${f}" is empty`);
    if (v.length > LIMITS[f]) throw new RequestError(400, `field "${f}" is ${v.length} characters; at most ${LIMITS[f]}`);
  }
  return { title: o.title as string, body: o.body as string, cause: o.cause as string };
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
