/**
 * A Sentry issue's comments (Sentry calls them notes): listed and posted with the run's token
 * (SENTRY_AUTH_TOKEN, never saved). Sentry answers at
 * /api/0/organizations/{org}/issues/{id}/comments/; an older Sentry and GlitchTip at
 * /api/0/issues/{id}/comments/, which is asked when the first answers 404. A comment is an
 * activity of type "note" whose `data.text` is the markdown written. The list's pages are followed
 * (Link header), so the lookup sees every comment.
 */
import { z } from 'zod';
import { SentryAuthError, SentryNotFoundError } from './errors';
import { sentryGet, sentryPost, type SentryHttpOptions } from './http';

export const SentryCommentSchema = z.object({
  id: z.union([z.string(), z.number()]).transform((v) => String(v)),
  data: z.object({ text: z.string().nullish() }).nullish(),
});
const SentryCommentListSchema = z.array(SentryCommentSchema);

export interface SentryComment {
  id: string;
  text: string;
}

/** Pages of comments read at most (100 a page where Sentry pages them). */
const MAX_PAGES = 20;

/** What a comment's errors end with: the run stopped there, and a rerun's lookup finds a comment already posted. */
export const COMMENT_TAIL =
  'The run stopped before its Sentry comment was saved; run the same command again to resume it (a comment already posted is found, not posted twice).';

export class SentryComments {
  /** The path that answered, once one has. */
  private found = new Map<string, string>();

  constructor(
    readonly o: { baseUrl: string; token: string | undefined; org: string; project: string } & Pick<SentryHttpOptions, 'fetch' | 'sleep' | 'timeoutMs'>,
  ) {}

  private http(): SentryHttpOptions {
    const { baseUrl, token, fetch, sleep, timeoutMs } = this.o;
    if (!token) throw new SentryAuthError(`sentry:${this.o.org}/${this.o.project}`, 'missing', undefined, COMMENT_TAIL);
    return {
      baseUrl,
      token: token ?? '',
      source: `sentry:${this.o.org}/${this.o.project}`,
      tail: COMMENT_TAIL,
      ...(fetch ? { fetch } : {}),
      ...(sleep ? { sleep } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
  }

  private paths(issueId: string): string[] {
    const id = encodeURIComponent(issueId);
    const known = this.found.get(issueId);
    return known ? [known] : [`/api/0/organizations/${encodeURIComponent(this.o.org)}/issues/${id}/comments/`, `/api/0/issues/${id}/comments/`];
  }

  /** Every comment of the issue; SentryNotFoundError when neither path knows it. */
  async list(issueId: string): Promise<SentryComment[]> {
    for (const p of this.paths(issueId)) {
      const first = await sentryGet(this.http(), p, SentryCommentListSchema, 'none');
      if (!first) continue;
      this.found.set(issueId, p);
      const out = first.body.map(toComment);
      let next = first.next;
      for (let pages = 1; next && pages < MAX_PAGES; pages++) {
        const page = await sentryGet(this.http(), next, SentryCommentListSchema);
        out.push(...page!.body.map(toComment));
        next = page!.next;
      }
      return out;
    }
    throw new SentryNotFoundError(`sentry:${this.o.org}/${this.o.project} issue ${issueId}`, this.o.baseUrl, COMMENT_TAIL);
  }

  /** Posts one comment; its id and text as Sentry answers them. */
  async post(issueId: string, text: string): Promise<SentryComment> {
    for (const p of this.paths(issueId)) {
      const res = await sentryPost(this.http(), p, { text }, SentryCommentSchema, 'none');
      if (!res) continue;
      this.found.set(issueId, p);
      return toComment(res.body);
    }
    throw new SentryNotFoundError(`sentry:${this.o.org}/${this.o.project} issue ${issueId}`, this.o.baseUrl, COMMENT_TAIL);
  }
}

function toComment(c: z.infer<typeof SentryCommentSchema>): SentryComment {
  return { id: c.id, text: c.data?.text ?? '' };
}
