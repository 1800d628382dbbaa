/**
 * The extension's settings and where this workspace's runs live.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspaceStateName } from './logic/state-name';
import { readSettings, type ExtensionSettings } from './logic/settings';
import { chooseSetting, confirmationKey, type SetAside } from './logic/setting-scopes';

export const SECTION = 'durableTriage';

/** The open workspace folder the agent works in (the first one), or undefined with no folder open. */
export function workspaceFolder(): string | undefined {
  const f = vscode.workspace.workspaceFolders?.[0];
  return f && f.uri.scheme === 'file' ? f.uri.fsPath : undefined;
}

/** Where "the user allowed this workspace's value of a setting" is remembered (the extension's global state). */
export type AllowedSettings = Pick<vscode.Memento, 'get'>;

/** What identifies this workspace for an allowed setting: its first folder (or workspace file). */
export function workspaceIdentity(): string {
  return (vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.workspace.workspaceFile)?.toString() ?? '';
}

/**
 * The settings, each from the level it may come from (see logic/settingScopes): `setAside` lists
 * the workspace values that were not used, for the caller to warn about or ask to allow.
 */
export function settings(allowed: AllowedSettings): { settings: ExtensionSettings; problems: string[]; setAside: SetAside[] } {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const c = vscode.workspace.getConfiguration(SECTION, folder);
  const ws = workspaceIdentity();
  const setAside: SetAside[] = [];
  const r = readSettings((key) => {
    const chosen = chooseSetting(key, c.inspect(key), (k, v) => allowed.get<boolean>(confirmationKey(ws, k, v)) === true);
    if (chosen.setAside) setAside.push(chosen.setAside);
    return chosen.value;
  });
  return { ...r, setAside };
}

/**
 * The state directory: the setting (absolute, "~/...", or relative to the workspace folder),
 * else a folder for this workspace under the extension's global storage, named by a hash
 * of the folder's path. Not `storageUri`: a second window on the same folder gets a
 * storageUri of its own, and would neither see the first window's runs nor meet their lock.
 */
export function stateDirectory(context: vscode.ExtensionContext, s: ExtensionSettings): string {
  const set = s.stateDirectory;
  if (set) {
    const home = set === '~' || set.startsWith('~/') ? path.join(os.homedir(), set.slice(1)) : set;
    return path.isAbsolute(home) ? home : path.resolve(workspaceFolder() ?? os.homedir(), home);
  }
  const ws = workspaceFolder();
  if (!ws) return path.join(context.globalStorageUri.fsPath, 'runs', 'no-folder');
  return path.join(context.globalStorageUri.fsPath, 'runs', workspaceStateName(ws));
}
