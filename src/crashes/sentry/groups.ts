/**
 * A Sentry project's crash groups, as a crash-folder run starts on them: the project's issues
 * (the query, sorted by frequency, up to the limit; pages followed), each with its latest
 * event's stack trace mapped to the workspace's files as a folder's reports are (signature.ts:
 * the longest tail of a frame's path that names a workspace file; frames Sentry marks as not in
 * the app are left out). Sentry has grouped the events already: each issue is one group, in
 * Sentry's order, its cause slug made as a folder group's is (a slug taken twice gets -2...).
 */
import * as path from 'node:path';
import { walkFiles } from '../../workspace/walk';
import { slugOf } from '../group';
import type { Crash } from '../parse';
import { placeInWorkspace, signatureOf } from '../signature';
import { SentryAuthError } from './errors';
import { sentryGet, type SentryHttpOptions, type SentryPage } from './http';
import { SentryEventSchema, SentryExceptionDataSchema, SentryIssueListSchema, type SentryEvent, type SentryIssue } from './schemas';
import { parseSentrySource, type SentrySettings } from './source';

/** A frame placed in the workspace, with its line. */
export interface SentryPlacedFrame {
  file: string;
  fn: string;
  line?: number;
}

/** A Sentry issue as a crash group (the shape a run saves: store/state.ts's SavedCrashGroup). */
export interface SentryCrashGroup {
  cause: string;
  signature: string;
  /** Always empty: the evidence is the Sentry issue, not report files. */
  reports: string[];
  message: string;
  frames: SentryPlacedFrame[];
  sentry: {
    id: string;
    shortId?: string;
    title: string;
    culprit?: string;
    count: number;
    userCount: number;
    firstSeen?: string;
    lastSeen?: string;
    permalink?: string;
    eventId?: string;
  };
}

/** Frames kept per group, to show the model and the person (innermost first). */
export const SENTRY_FRAMES_KEPT = 8;
const MAX_MESSAGE_CHARS = 500;

export interface SentryFetch extends SentrySettings, Pick<SentryHttpOptions, 'maxWaits' | 'maxWaitSeconds' | 'sleep' | 'fetch' | 'timeoutMs'> {
  token: string | undefined;
}

export async function sentryCrashGroups(workspace: string, crashes: string, o: SentryFetch): Promise<SentryCrashGroup[]> {
  const { org, project } = parseSentrySource(crashes);
  const source = `sentry:${org}/${project}`;
  if (!o.token) throw new SentryAuthError(source, 'missing');
  const http: SentryHttpOptions = {
    baseUrl: o.baseUrl,
    token: o.token,
    source,
    ...(o.maxWaits !== undefined ? { maxWaits: o.maxWaits } : {}),
    ...(o.maxWaitSeconds !== undefined ? { maxWaitSeconds: o.maxWaitSeconds } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
  const issues = await listIssues(http, org, project, o);
  const files = new Set(await walkFiles(workspace, path.resolve(workspace)));
  const groups: SentryCrashGroup[] = [];
  const taken = new Map<string, number>();
  for (const issue of issues) {
    const event = await latestEvent(http, org, issue.id);
    const crash = crashOf(issue, event);
    const sig = signatureOf(crash, files);
    const base = slugOf(sig);
    const n = (taken.get(base) ?? 0) + 1;
    taken.set(base, n);
    groups.push({
      cause: n === 1 ? base : `${base}-${n}`,
      signature: sig.text,
      reports: [],
      message: capped(crash.message, MAX_MESSAGE_CHARS),
      frames: placedFrames(crash, files),
      sentry: {
        id: issue.id,
        ...(issue.shortId ? { shortId: issue.shortId } : {}),
        title: issue.title,
        ...(issue.culprit ? { culprit: issue.culprit } : {}),
        count: issue.count,
        userCount: issue.userCount ?? 0,
        ...(issue.firstSeen ? { firstSeen: issue.firstSeen } : {}),
        ...(issue.lastSeen ? { lastSeen: issue.lastSeen } : {}),
        ...(issue.permalink ? { permalink: issue.permalink } : {}),
        ...(event?.eventID || event?.id ? { eventId: (event.eventID ?? event.id)! } : {}),
      },
    });
  }
  return groups;
}

async function listIssues(http: SentryHttpOptions, org: string, project: string, o: SentrySettings): Promise<SentryIssue[]> {
  const q = new URLSearchParams({ query: o.query, sort: 'freq', limit: String(o.limit) });
  let url: string | undefined = `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}/issues/?${q.toString()}`;
  const out: SentryIssue[] = [];
  const seen = new Set<string>();
  for (let pages = 0; url !== undefined && out.length < o.limit && pages < o.limit; pages++) {
    const page: SentryPage<SentryIssue[]> = (await sentryGet(http, url, SentryIssueListSchema))!;
    for (const i of page.body) {
      if (seen.has(i.id) || out.length >= o.limit) continue;
      seen.add(i.id);
      out.push(i);
    }
    if (page.body.length === 0) break;
    url = page.next;
  }
  return out;
}

/** The issue's latest event: the organization's path (Sentry), else the short one (GlitchTip, older Sentry); undefined when neither has one. */
async function latestEvent(http: SentryHttpOptions, org: string, id: string): Promise<SentryEvent | undefined> {
  const paths = [
    `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(id)}/events/latest/`,
    `/api/0/issues/${encodeURIComponent(id)}/events/latest/`,
  ];
  for (const p of paths) {
    const page = await sentryGet(http, p, SentryEventSchema, 'none');
    if (page) return page.body;
  }
  return undefined;
}

/** The event's crash: its last exception with a stack trace (Sentry lists chained exceptions cause first), frames innermost first. */
export function crashOf(issue: SentryIssue, event: SentryEvent | undefined): Crash {
  const values = (event?.entries ?? [])
    .filter((e) => e.type === 'exception')
    .flatMap((e) => {
      const d = SentryExceptionDataSchema.safeParse(e.data);
      return d.success ? (d.data.values ?? []) : [];
    });
  const main = [...values].reverse().find((v) => (v.stacktrace?.frames ?? []).length > 0) ?? values[values.length - 1];
  const frames = (main?.stacktrace?.frames ?? [])
    .filter((f) => f.inApp !== false)
    .map((f) => ({ path: f.absPath || f.filename || '', fn: f.function ?? '', ...(typeof f.lineNo === 'number' ? { line: f.lineNo } : {}) }))
    .reverse();
  return {
    type: main?.type || issue.metadata?.type || 'Error',
    message: main?.value ?? issue.metadata?.value ?? issue.title,
    frames,
    kind: 'node',
  };
}

function placedFrames(c: Crash, files: ReadonlySet<string>): SentryPlacedFrame[] {
  const out: SentryPlacedFrame[] = [];
  for (const f of c.frames) {
    const file = placeInWorkspace(f, files);
    if (!file) continue;
    out.push({ file, fn: f.fn, ...(f.line !== undefined ? { line: f.line } : {}) });
    if (out.length === SENTRY_FRAMES_KEPT) break;
  }
  return out;
}

function capped(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}
