/**
 * Links back to Sentry, for a run whose crash groups are a Sentry project's issues
 * (`--crashes sentry:ORG/PROJECT`): the causes' Sentry issues as the run saved them (issue_file
 * links each in the body it files), and the sentry_comment tool, which comments on each Sentry
 * issue with its GitHub issue and pull request, once. Sentry's address and project are the run's
 * saved options; the token is the one given now (SENTRY_AUTH_TOKEN, the editor's secret storage),
 * never saved.
 */
import type { Tool } from '../agent/tool';
import { SentryComments } from '../crashes/sentry/comments';
import { isSentrySource, parseSentrySource } from '../crashes/sentry/source';
import type { SentryHttpOptions } from '../crashes/sentry/http';
import type { RunState } from '../store/state';
import type { Tracker } from '../tracker/tracker';
import { sentryCommentTool, type SentryCommentOptions, type SentryIssueOfCause } from '../tools/sentry-comment';

/** The run's causes that are Sentry issues (none for a run of a folder of reports). */
export function sentryIssuesOf(state: RunState): SentryIssueOfCause[] {
  return (state.config.crashGroups ?? []).flatMap((g) =>
    g.sentry
      ? [
          {
            cause: g.cause,
            id: g.sentry.id,
            ...(g.sentry.shortId ? { shortId: g.sentry.shortId } : {}),
            ...(g.sentry.permalink ? { permalink: g.sentry.permalink } : {}),
          },
        ]
      : [],
  );
}

/** sentry_comment, for a run of a Sentry project; none otherwise. */
export function sentryLinkTools(
  state: RunState,
  o: {
    tracker: Tracker;
    token: string | undefined;
    pullRequest?: SentryCommentOptions['pullRequest'];
  } & Pick<SentryHttpOptions, 'fetch' | 'sleep' | 'timeoutMs'>,
): Tool[] {
  const opt = state.config.options ?? {};
  const issues = sentryIssuesOf(state);
  if (!isSentrySource(opt.crashes) || opt.sentryUrl === undefined || issues.length === 0) return [];
  const { org, project } = parseSentrySource(opt.crashes!);
  const comments = new SentryComments({
    baseUrl: opt.sentryUrl,
    token: o.token,
    org,
    project,
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  });
  return [
    sentryCommentTool({
      comments,
      issues,
      tracker: o.tracker,
      keys: state.config.keys,
      ...(o.pullRequest ? { pullRequest: o.pullRequest } : {}),
    }),
  ];
}
