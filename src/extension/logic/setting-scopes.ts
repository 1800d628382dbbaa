/**
 * Which level of the settings each durableTriage.* setting is taken from. A run writes files in
 * the workspace, so it could write .vscode/settings.json (or a .code-workspace file): a setting
 * that decides safety must not be taken from there, or a run could turn off its own safeguards
 * for the next run. Such settings are read from the user's settings (or their default) only,
 * whatever the editor reports for the workspace (package.json also scopes them "application", but an
 * older editor or a .code-workspace file could still supply a workspace value).
 *
 * Two of them are naturally per repository: the test command and the tracker. A workspace value
 * of those is used only after the user allowed that exact value for that workspace once (a modal
 * question; the answer kept as a hash of workspace, setting and value), else the user's value.
 */
import { createHash } from 'node:crypto';

/** Taken from the user's settings only: where state and keys go, what is asked, what is spent. */
export const USER_ONLY_SETTINGS = [
  'stateDirectory',
  'store',
  'approval.tools',
  'model.baseUrl',
  'keys',
  'prices',
  'budget.maxTurns',
  'budget.maxDollars',
  'budget.maxTokens',
  'maxRestarts',
  'crashes.sentry',
  'crashes.sentryUrl',
  'crashes.sentryQuery',
  'crashes.sentryLimit',
  'pullRequests.enabled',
  'pullRequests.base',
  'pullRequests.remote',
  'pullRequests.draft',
  'pullRequests.dependencies',
  'pullRequests.lifecycleScripts',
  'pullRequests.network',
  'mcp.servers',
] as const;

/** A workspace value is used only once the user allowed it for this workspace. */
export const CONFIRMED_SETTINGS = ['testCommand', 'tracker'] as const;

/** What the editor's `inspect()` reports for one setting (language-specific values are not used). */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** A workspace value that was not used: ignored for good, or waiting for the user's yes. */
export interface SetAside {
  key: string;
  value: unknown;
  kind: 'user-only' | 'unconfirmed';
}

export interface ChosenSetting {
  value: unknown;
  setAside?: SetAside;
}

const userOnly: ReadonlySet<string> = new Set(USER_ONLY_SETTINGS);
const confirmed: ReadonlySet<string> = new Set(CONFIRMED_SETTINGS);

/** The key under which "the user allowed this workspace value" is kept (global state). */
export function confirmationKey(workspace: string, key: string, value: unknown): string {
  const h = createHash('sha256')
    .update(JSON.stringify([workspace, key, value]))
    .digest('hex');
  return `durableTriage.allowedWorkspaceSetting.${h}`;
}

/**
 * The value to use for `key` (relative to durableTriage.): a user-only setting's user value (or
 * default), never the workspace's (a workspace value equal to it is no news); a confirmed setting's workspace value only when `allowed` says
 * the user allowed it; any other setting as the editor resolves it (folder, workspace, user, default).
 */
export function chooseSetting(key: string, i: InspectedSetting | undefined, allowed: (key: string, value: unknown) => boolean): ChosenSetting {
  if (!i) return { value: undefined };
  const user = i.globalValue !== undefined ? i.globalValue : i.defaultValue;
  const ws = i.workspaceFolderValue !== undefined ? i.workspaceFolderValue : i.workspaceValue;
  if (ws === undefined || JSON.stringify(ws) === JSON.stringify(user)) return { value: user };
  if (userOnly.has(key)) return { value: user, setAside: { key, value: ws, kind: 'user-only' } };
  if (confirmed.has(key) && !allowed(key, ws)) return { value: user, setAside: { key, value: ws, kind: 'unconfirmed' } };
  return { value: ws };
}

/** The warning for a workspace value that is ignored: it names the setting and where it must be set. */
export function ignoredSettingMessage(key: string): string {
  return `Durable Triage: the workspace's value of durableTriage.${key} is ignored: this setting decides what a run may do, and a run can write the workspace's settings. Set it in your user settings (Preferences: Open User Settings).`;
}

/** The modal question before a workspace's test command or tracker is used. */
export function confirmSettingQuestion(key: string, value: unknown): { message: string; detail: string } {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  const what =
    key === 'testCommand'
      ? 'Runs would run this command through the shell in the workspace.'
      : key === 'tracker'
        ? 'Runs would file their issues there (on GitHub with your GitHub sign-in).'
        : 'Runs would use it.';
  return {
    message: `Durable Triage: this workspace sets durableTriage.${key}. Use it in this workspace?`,
    detail: `${shown}\n\n${what} Allow it only if you wrote it or trust it: a run can write the workspace's settings. Until you allow it, your user setting is used. Asked again if the value changes.`,
  };
}

export const ALLOW_SETTING = 'Allow in This Workspace';
