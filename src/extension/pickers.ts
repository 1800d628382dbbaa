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

export const CRASH_FOLDER_LABEL = 'Crash reports folder…';

export type TaskPick = { kind: 'catalog'; task: string } | { kind: 'folder'; task: string; crashes: string; leaveOut: string[] };

export async function pickTask(workspace: string): Promise<TaskPick | undefined> {
  type Item = vscode.QuickPickItem & { task?: string };
  const items: Item[] = core
    .catalog()
    .tasks()
    .map((t) => ({ label: t.name, description: t.main ? 'main' : '', detail: t.description, task: t.name }));
  items.push({ label: CRASH_FOLDER_LABEL, detail: 'Triage your own crash reports: a folder inside this workspace (needs a real model)' });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Durable Triage: Start Triage',
    placeHolder: 'Which crash reports should the agent triage?',
    matchOnDetail: true,
  });
  if (!pick) return undefined;
  if (pick.task) return { kind: 'catalog', task: pick.task };
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
async function confirmGroups(workspace: string, crashes: string): Promise<Set<string> | undefined> {
  const groups = await core.crashFolder().crashFolderGroups(workspace, crashes);
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
      title: `Durable Triage: the crash groups in ${crashes}`,
      placeHolder: 'Start on these groups, pick a group to see or leave it out, or press Escape',
      matchOnDetail: true,
    });
    if (!pick) return undefined;
    if (pick.start) return leftOut;
    if (!pick.cause) continue;
    const cause = pick.cause;
    const action = (await vscode.window.showQuickPick(groupActions(cause, leftOut), { title: `Durable Triage: crash group ${cause}` })) as
      GroupAction | undefined;
    if (!action) continue;
    if (action === GROUP_ACTIONS.show) {
      const group = groups.find((g) => g.cause === cause);
      for (const r of (group?.reports ?? []).slice(0, MAX_REPORTS_SHOWN)) {
        await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspace, r)), { preview: false, preserveFocus: true });
      }
    }
    leftOut = applyGroupAction(action, cause, leftOut);
  }
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
