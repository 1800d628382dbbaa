/**
 * Start Triage's two quick picks: the task (the catalog's, or the user's own folder of crash
 * reports), then the model.
 */
import * as vscode from 'vscode';
import type { ProviderSetting } from './logic/settings';
import { crashFolderRel, CRASH_FOLDER_TASK } from './logic/crash-folder';
import * as core from './lazy-modules';

export const CRASH_FOLDER_LABEL = 'Crash reports folder…';

export type TaskPick = { kind: 'catalog'; task: string } | { kind: 'folder'; task: string; crashes: string };

export async function pickTask(workspace: string): Promise<TaskPick | undefined> {
  type Item = vscode.QuickPickItem & { task?: string };
  const items: Item[] = core
    .catalog()
    .tasks()
    .map((t) => ({ label: t.name, description: t.main ? 'main' : '', detail: t.description, task: t.name }));
  items.push({ label: CRASH_FOLDER_LABEL, detail: 'Triage your own crash reports: a folder inside this workspace (needs a real model)' });
  const pick = await vscode.window.showQuickPick(items, { title: 'Durable Triage: Start Triage', placeHolder: 'Which crash reports should the agent triage?', matchOnDetail: true });
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
  return (await confirmGroups(workspace, crashes)) ? { kind: 'folder', task: CRASH_FOLDER_TASK, crashes } : undefined;
}

/** Shows the crash groups the run will work on (as `triage group` prints them) and lets the user start on them. */
async function confirmGroups(workspace: string, crashes: string): Promise<boolean> {
  const groups = await core.crashFolder().crashFolderGroups(workspace, crashes);
  const reports = groups.reduce((n, g) => n + g.reports.length, 0);
  type Item = vscode.QuickPickItem & { start?: boolean };
  const items: Item[] = [
    { label: `$(play) Start Triage on these ${groups.length} crash group${groups.length === 1 ? '' : 's'}`, detail: `${reports} report${reports === 1 ? '' : 's'} in ${crashes}; one issue per group`, start: true },
    { label: 'Crash groups', kind: vscode.QuickPickItemKind.Separator },
    ...groups.map((g) => ({ label: g.cause, description: `${g.reports.length} report${g.reports.length === 1 ? '' : 's'}`, detail: `${g.signature} · ${g.reports.join(', ')}` })),
  ];
  for (;;) {
    const pick = await vscode.window.showQuickPick(items, { title: `Durable Triage: the crash groups in ${crashes}`, placeHolder: 'Start on these groups, or press Escape', matchOnDetail: true });
    if (!pick) return false;
    if (pick.start) return true;
  }
}

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
