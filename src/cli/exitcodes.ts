/**
 * The CLI's exit statuses, one per kind of stop (documented in the README).
 */
import { TriageError } from '../core/errors';

export const EXIT = {
  done: 0,
  internal: 1,
  badInput: 2,
  paused: 3,
  locked: 4,
  workspaceChanged: 5,
  maxResumes: 6,
  budget: 7,
  corrupt: 8,
  lockCompromised: 9,
  model: 10,
  tracker: 11,
  storeUnavailable: 12,
  trackerStoreCorrupt: 13,
  git: 14,
  writesNotAllowed: 15,
  sentryAuth: 16,
  sentryNotFound: 17,
  sentryUnavailable: 18,
  mcp: 19,
  dependencies: 20,
  cancelled: 130,
} as const;

const BY_CODE: Record<string, number> = {
  'bad-input': EXIT.badInput,
  'run-exists': EXIT.badInput,
  locked: EXIT.locked,
  'workspace-changed': EXIT.workspaceChanged,
  'workspace-link': EXIT.workspaceChanged,
  'max-resumes': EXIT.maxResumes,
  'budget-exceeded': EXIT.budget,
  'corrupt-checkpoint': EXIT.corrupt,
  'lock-compromised': EXIT.lockCompromised,
  'model-error': EXIT.model,
  'recording-diverged': EXIT.model,
  'reply-cut': EXIT.model,
  'github-auth': EXIT.tracker,
  'github-access': EXIT.tracker,
  'github-rate-limit': EXIT.tracker,
  'github-unavailable': EXIT.tracker,
  cancelled: EXIT.cancelled,
  'git-failed': EXIT.git,
  'git-not-a-repository': EXIT.git,
  'git-branch-taken': EXIT.git,
  'git-push-rejected': EXIT.git,
  'store-unavailable': EXIT.storeUnavailable,
  'tracker-store-corrupt': EXIT.trackerStoreCorrupt,
  'writes-not-allowed': EXIT.writesNotAllowed,
  'sentry-auth': EXIT.sentryAuth,
  'sentry-not-found': EXIT.sentryNotFound,
  'sentry-unavailable': EXIT.sentryUnavailable,
  'mcp-server': EXIT.mcp,
  'mcp-tools-changed': EXIT.mcp,
  'deps-lockfile': EXIT.dependencies,
  'deps-install': EXIT.dependencies,
  'deps-missing-tool': EXIT.dependencies,
  'deps-offline': EXIT.dependencies,
};

export function exitCodeOf(e: unknown): number {
  if (e instanceof TriageError) return BY_CODE[e.code] ?? EXIT.internal;
  if (e && typeof e === 'object' && 'code' in e && (e as { code: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return EXIT.badInput;
  return EXIT.internal;
}
