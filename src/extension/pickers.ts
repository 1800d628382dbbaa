/**
 * Start Triage's two quick picks: the task (the catalog's, or the user's own folder of crash
 * reports), then the model.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GROUP_ACTIONS, type GroupAction, applyGroupAction, groupActions, groupRows, startRow } from './logic/crash-groups-pick';
import type { ProviderSetting } from './logic/settings';
import { crashFolderRel, CRASH_FOLDER_TASK } from './logic/crash-folder';
import * as core from './lazy-modules';
import type { SentrySetting } from './logic/settings';
import type { SentryToken } from './sentry-token';
import type { SentryOptions } from '../triage/job';
import type { SavedCrashGroup } from '../store/state';

export const CRASH_FOLDER_LABEL = 'Crash reports folder…';
export const SENTRY_LABEL = 'Sentry project…';

export type TaskPick =
  | { kind: 'catalog'; task: string }
  /** A folder of crash reports, or a Sentry project (crashes "sentry:ORG/PROJECT", with its settings and token: never saved). */
  | { kind: 'folder'; task: string; crashes: string; leaveOut: string[]; sentry?: SentryOptions };

/** With `sentry` (durableTriage.crashes.sentry set), the pick offers the Sentry project too; its token comes from secret storage (asked when missing). */
export async function pickTask(workspace: string, sentry?: { setting: SentrySetting; token: SentryToken }): Promise<TaskPick | undefined> {
  type Item = vscode.QuickPickItem & { task?: string; sentry?: boolean };
  const items: Item[] = core
    .catalog()
    .tasks()
    .map((t) => ({ label: t.name, description: t.main ? 'main' : '', detail: t.description, task: t.name }));
  items.push({ label: CRASH_FOLDER_LABEL, detail: 'Triage your own crash reports: a folder inside this workspace (needs a real model)' });
  if (sentry)
    items.push({
      label: SENTRY_LABEL,
      description: sentry.setting.crashes.slice('sentry:'.length),
      detail: `Triage the Sentry issues of ${sentry.setting.crashes.slice('sentry:'.length)} at ${sentry.setting.baseUrl} (${sentry.setting.query}, the ${sentry.setting.limit} most frequent; needs a real model)`,
      sentry: true,
    });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Durable Triage: Start Triage',
    placeHolder: 'Which crash reports should the agent triage?',
    matchOnDetail: true,
  });
  if (!pick) return undefined;
  if (pick.task) return { kind: 'catalog', task: pick.task };
  if (pick.sentry && sentry) return pickSentry(workspace, sentry.setting, sentry.token);
  const folder = await vscode.window.showOpenDialog({
    title: 'Durable Triage: the folder of crash reports',
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    defaultUri: vscode.Uri.file(workspace),
    openLabel: 'Triage These Reports',
  });
  if (!folder?.[0]) return undefined;
  const crashes = crashFolderRel(workspace, folder[0].fsPath);
  const leftOut = await confirmGroups(workspace, crashes);
  return leftOut ? { kind: 'folder', task: CRASH_FOLDER_TASK, crashes, leaveOut: [...leftOut] } : undefined;
}

/**
 * Shows the crash groups the run will work on (as `triage group` prints them); a group's row
 * shows its reports or leaves it out. The groups left out when the user starts; undefined: not started.
 */
async function confirmGroups(workspace: string, crashes: string, fetched?: SavedCrashGroup[]): Promise<Set<string> | undefined> {
  const groups = fetched ?? (await core.crashFolder().crashFolderGroups(workspace, crashes));
  const isSentry = fetched !== undefined;
  let leftOut = new Set<string>();
  type Item = vscode.QuickPickItem & { start?: boolean; cause?: string };
  for (;;) {
    const start = startRow(groups, leftOut, crashes);
    const items: Item[] = [
      { label: start.label, detail: start.detail, start: start.canStart },
      { label: 'Crash groups', kind: vscode.QuickPickItemKind.Separator },
      ...groupRows(groups, leftOut),
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: isSentry ? `Durable Triage: the Sentry issues of ${crashes.slice('sentry:'.length)}` : `Durable Triage: the crash groups in ${crashes}`,
      placeHolder: 'Start on these groups, pick a group to see or leave it out, or press Escape',
      matchOnDetail: true,
    });
    if (!pick) return undefined;
    if (pick.start) return leftOut;
    if (!pick.cause) continue;
    const cause = pick.cause;
    const action = (await vscode.window.showQuickPick(groupActions(cause, leftOut, isSentry), { title: `Durable Triage: crash group ${cause}` })) as
      GroupAction | undefined;
    if (!action) continue;
    if (action === GROUP_ACTIONS.openInSentry) {
      const link = groups.find((g) => g.cause === cause)?.sentry?.permalink;
      if (link) await vscode.env.openExternal(vscode.Uri.parse(link));
    }
    if (action === GROUP_ACTIONS.show) {
      const group = groups.find((g) => g.cause === cause);
      for (const r of (group?.reports ?? []).slice(0, MAX_REPORTS_SHOWN)) {
        await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspace, r)), { preview: false, preserveFocus: true });
      }
    }
    leftOut = applyGroupAction(action, cause, leftOut);
  }
}

/**
 * The Sentry project's groups, fetched now (the token from secret storage, asked once when
 * missing) and shown as a folder's are. The run fetches them again at its start and saves them.
 */
async function pickSentry(workspace: string, setting: SentrySetting, tokens: SentryToken): Promise<TaskPick | undefined> {
  const token = await tokens.getOrAsk(setting.crashes.slice('sentry:'.length));
  if (!token) return undefined;
  const sentry: SentryOptions = { baseUrl: setting.baseUrl, query: setting.query, limit: setting.limit, token };
  const groups = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Durable Triage: reading the Sentry issues of ${setting.crashes.slice('sentry:'.length)}…` },
    () => core.crashFolder().sentryGroups(workspace, setting.crashes, { ...setting, token }),
  );
  const leftOut = await confirmGroups(workspace, setting.crashes, groups);
  return leftOut ? { kind: 'folder', task: CRASH_FOLDER_TASK, crashes: setting.crashes, leaveOut: [...leftOut], sentry } : undefined;
}

/** Reports opened by Show Its Reports (a group can have hundreds). */
const MAX_REPORTS_SHOWN = 5;

const MODEL_ITEMS: readonly (vscode.QuickPickItem & { provider: ProviderSetting })[] = [
  { label: 'Recorded demo', detail: "replays the task's recorded conversation, no key needed", provider: 'recorded' },
  { label: 'VS Code Language Model', detail: 'a chat model you have in VS Code (e.g. GitHub Copilot), no key needed', provider: 'vscode-lm' },
  { label: 'Anthropic', detail: 'the Anthropic Messages API (key: "Durable Triage: Set API Key" or ANTHROPIC_API_KEY)', provider: 'anthropic' },
  { label: 'OpenAI-compatible', detail: 'OpenAI or a local server such as Ollama or vLLM (durableTriage.model.baseUrl)', provider: 'openai' },
];

/** The model quick pick; the settings' provider is marked as the default. The recorded demo only for catalog tasks. */
export async function pickModel(defaultProvider: ProviderSetting, recordedAllowed: boolean): Promise<ProviderSetting | undefined> {
  const items = MODEL_ITEMS.filter((i) => recordedAllowed || i.provider !== 'recorded').map((i) => ({
    ...i,
    description: i.provider === defaultProvider ? 'default (durableTriage.model.provider)' : '',
  }));
  const pick = await vscode.window.showQuickPick(items, { title: 'Durable Triage: Start Triage', placeHolder: 'Which model should the agent use?' });
  return pick?.provider;
}
