/**
 * A local stand-in of Sentry's REST API (/api/0/) on 127.0.0.1, answering with the shapes of
 * Sentry's API reference: "List a Project's Issues" (issue objects with count as a string,
 * userCount, firstSeen, lastSeen, permalink, metadata; paginated by a Link header with
 * rel="previous"/"next", results="true|false" and cursor, as Sentry writes it) and "Retrieve the
 * Latest Event for an Issue" (an event with `entries`, one of type "exception" whose values hold
 * stack frames oldest first, with filename, absPath, lineNo, function, inApp). Errors are
 * {"detail": "..."} as Sentry answers them. `glitchtip: true` answers the latest event only at
 * /api/0/issues/{id}/events/latest/. `script` answers the next matching requests otherwise (a
 * 429 with Retry-After, a 502...).
 *
 *   GET /api/0/projects/:org/:project/issues/?query&sort&limit&cursor
 *   GET /api/0/organizations/:org/issues/:id/events/latest/
 *   GET /api/0/issues/:id/events/latest/
 *   GET|POST /api/0/organizations/:org/issues/:id/comments/   (Sentry; not with `glitchtip: true`)
 *   GET|POST /api/0/issues/:id/comments/                      (GlitchTip, older Sentry)
 *
 * Comments are activities of type "note" ({id, type, data: {text}, user, dateCreated}), listed
 * newest first and paged by `perPage` with the same Link header; a POST {text} answers 201 with
 * the new one. A token of `readOnlyTokens` (no event:write scope) reads, and any POST with it is
 * answered 403 {"detail": "You do not have permission to perform this action."}, as Sentry does.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinFrame {
  absPath: string;
  function: string;
  lineNo: number;
  inApp: boolean;
}

export interface StandinSentryIssue {
  id: string;
  title: string;
  culprit: string;
  count: number;
  userCount: number;
  type: string;
  value: string;
  /** Oldest first, as Sentry lists them. */
  frames: StandinFrame[];
}

export interface SentryScripted {
  /** Answers requests whose path includes this. */
  match: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface SentryRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface SentryStandin {
  url: string;
  token: string;
  requests: SentryRequest[];
  /** Answers the next request whose path includes `match` with this, once. */
  script(s: SentryScripted): void;
  /** The comments posted on an issue, oldest first. */
  comments(issueId: string): { id: string; text: string }[];
  /** The project's issues now (tests change them to show a resumed run does not fetch again). */
  issues: StandinSentryIssue[];
  close(): Promise<void>;
}

export async function startSentryStandin(o: {
  org: string;
  project: string;
  issues: StandinSentryIssue[];
  perPage?: number;
  glitchtip?: boolean;
  token?: string;
  /** Tokens without the event:write scope: they read as the token does, and a POST gets 403 as Sentry answers it. */
  readOnlyTokens?: string[];
}): Promise<SentryStandin> {
  const token = o.token ?? 'sntrys_standin_token_1234567890';
  const perPage = o.perPage ?? 2;
  const requests: SentryRequest[] = [];
  const scripted: SentryScripted[] = [];
  let base = '';
  const state = { issues: o.issues };
  const comments = new Map<string, { id: string; text: string; at: string }[]>();
  let nextComment = 100;
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
    const s = scripted.findIndex((x) => url.pathname.includes(x.match));
    if (s >= 0) {
      const [x] = scripted.splice(s, 1);
      send(res, x.status, x.body ?? { detail: `scripted ${x.status}` }, x.headers);
      return;
    }
    const readOnly = (o.readOnlyTokens ?? []).some((t) => req.headers.authorization === `Bearer ${t}`);
    if (req.headers.authorization !== `Bearer ${token}` && !readOnly) {
      send(res, 401, { detail: 'Invalid token' });
      return;
    }
    if (readOnly && req.method !== 'GET') {
      send(res, 403, { detail: 'You do not have permission to perform this action.' });
      return;
    }
    const list = /^\/api\/0\/projects\/([^/]+)\/([^/]+)\/issues\/$/.exec(url.pathname);
    if (list) {
      if (list[1] !== o.org || list[2] !== o.project) {
        send(res, 404, { detail: 'The requested resource does not exist' });
        return;
      }
      const want = Math.min(Number(url.searchParams.get('limit') ?? '100'), perPage);
      const offset = Number((url.searchParams.get('cursor') ?? '0:0:0').split(':')[1]);
      const sorted = [...state.issues].sort((a, b) => b.count - a.count);
      const page = sorted.slice(offset, offset + want);
      const link = (rel: string, off: number, results: boolean): string => {
        const u = new URL(url.toString());
        u.searchParams.set('cursor', `0:${off}:${rel === 'previous' ? 1 : 0}`);
        return `<${u.toString()}>; rel="${rel}"; results="${results}"; cursor="0:${off}:${rel === 'previous' ? 1 : 0}"`;
      };
      const more = offset + want < sorted.length;
      send(
        res,
        200,
        page.map((i) => issueJson(i, base, o.org, o.project)),
        { Link: `${link('previous', Math.max(0, offset - want), offset > 0)}, ${link('next', offset + want, more)}` },
      );
      return;
    }
    const notes = /^\/api\/0\/(?:organizations\/([^/]+)\/)?issues\/([^/]+)\/comments\/$/.exec(url.pathname);
    if (notes) {
      const issue = state.issues.find((i) => i.id === notes[2]);
      if (!issue || (notes[1] !== undefined && (notes[1] !== o.org || o.glitchtip))) {
        send(res, 404, { detail: 'The requested resource does not exist' });
        return;
      }
      const list = comments.get(issue.id) ?? [];
      comments.set(issue.id, list);
      if (req.method === 'POST') {
        let raw = '';
        req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        req.on('end', () => {
          let text: unknown;
          try {
            text = (JSON.parse(raw) as { text?: unknown }).text;
          } catch {
            text = undefined;
          }
          if (typeof text !== 'string' || text === '') {
            send(res, 400, { detail: 'text: This field is required.' });
            return;
          }
          const c = { id: String(nextComment++), text, at: new Date(Date.UTC(2026, 11, 2, 0, 0, list.length)).toISOString() };
          list.push(c);
          send(res, 201, noteJson(c));
        });
        return;
      }
      const newest = [...list].reverse();
      const offset = Number((url.searchParams.get('cursor') ?? '0:0:0').split(':')[1]);
      const page = newest.slice(offset, offset + perPage);
      const more = offset + perPage < newest.length;
      const u = new URL(url.toString());
      u.searchParams.set('cursor', `0:${offset + perPage}:0`);
      send(res, 200, page.map(noteJson), { Link: `<${u.toString()}>; rel="next"; results="${more}"; cursor="0:${offset + perPage}:0"` });
      return;
    }
    const latest = /^\/api\/0\/(?:organizations\/([^/]+)\/)?issues\/([^/]+)\/events\/latest\/$/.exec(url.pathname);
    if (latest) {
      const issue = state.issues.find((i) => i.id === latest[2]);
      if (!issue || (latest[1] !== undefined && (latest[1] !== o.org || o.glitchtip))) {
        send(res, 404, { detail: 'The requested resource does not exist' });
        return;
      }
      send(res, 200, eventJson(issue));
      return;
    }
    send(res, 404, { detail: 'The requested resource does not exist' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    token,
    requests,
    script: (x) => scripted.push(x),
    comments: (id) => (comments.get(id) ?? []).map((c) => ({ id: c.id, text: c.text })),
    get issues() {
      return state.issues;
    },
    set issues(v) {
      state.issues = v;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function issueJson(i: StandinSentryIssue, base: string, org: string, project: string): Record<string, unknown> {
  return {
    id: i.id,
    shareId: null,
    shortId: `${project.toUpperCase()}-${i.id}`,
    title: i.title,
    culprit: i.culprit,
    permalink: `${base}/organizations/${org}/issues/${i.id}/`,
    logger: null,
    level: 'error',
    status: 'unresolved',
    statusDetails: {},
    isPublic: false,
    platform: 'node',
    project: { id: '2', name: project, slug: project },
    type: 'error',
    metadata: { type: i.type, value: i.value, filename: i.frames[i.frames.length - 1]?.absPath },
    numComments: 0,
    assignedTo: null,
    isBookmarked: false,
    isSubscribed: false,
    subscriptionDetails: null,
    hasSeen: false,
    annotations: [],
    isUnhandled: true,
    count: String(i.count),
    userCount: i.userCount,
    firstSeen: '2026-11-01T10:00:00.000000Z',
    lastSeen: '2026-12-01T10:00:00.000000Z',
    stats: { '24h': [] },
  };
}

function eventJson(i: StandinSentryIssue): Record<string, unknown> {
  return {
    id: `ev${i.id}`,
    eventID: `9fac2ceed9344f2bbfdd1fdacb0ed9b${i.id}`,
    groupID: i.id,
    title: i.title,
    message: '',
    platform: 'node',
    dateCreated: '2026-12-01T10:00:00Z',
    tags: [{ key: 'level', value: 'error' }],
    context: {},
    contexts: {},
    user: null,
    sdk: { name: 'sentry.javascript.node', version: '8.0.0' },
    entries: [
      { type: 'breadcrumbs', data: { values: [] } },
      {
        type: 'exception',
        data: {
          excOmitted: null,
          hasSystemFrames: true,
          values: [
            {
              type: i.type,
              value: i.value,
              module: null,
              mechanism: { type: 'onuncaughtexception', handled: false },
              threadId: null,
              rawStacktrace: null,
              stacktrace: {
                framesOmitted: null,
                registers: null,
                hasSystemFrames: true,
                frames: i.frames.map((f) => ({
                  filename: f.absPath.replace(/^.*\/(src\/)/, '$1'),
                  absPath: f.absPath,
                  module: null,
                  package: null,
                  platform: null,
                  instructionAddr: null,
                  symbolAddr: null,
                  function: f.function,
                  rawFunction: null,
                  symbol: null,
                  context: [],
                  lineNo: f.lineNo,
                  colNo: 10,
                  inApp: f.inApp,
                  trust: null,
                  errors: null,
                  vars: null,
                })),
              },
            },
          ],
        },
      },
      { type: 'request', data: { method: 'GET', url: 'http://localhost/sum' } },
    ],
  };
}

function noteJson(c: { id: string; text: string; at: string }): Record<string, unknown> {
  return {
    id: c.id,
    user: { id: '1', name: 'triage-bot', username: 'triage-bot', email: 'bot@example.com' },
    type: 'note',
    data: { text: c.text, mentions: [] },
    dateCreated: c.at,
  };
}
