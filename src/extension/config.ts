/**
 * The extension's settings and where this workspace's runs live.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readSettings, type ExtensionSettings } from './logic/settings';

export const SECTION = 'durableTriage';

/** The open workspace folder the agent works in (the first one), or undefined with no folder open. */
export function workspaceFolder(): string | undefined {
  const f = vscode.workspace.workspaceFolders?.[0];
  return f && f.uri.scheme === 'file' ? f.uri.fsPath : undefined;
}

export function settings(): { settings: ExtensionSettings; problems: string[] } {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const c = vscode.workspace.getConfiguration(SECTION, folder);
  return readSettings((key) => c.get(key));
}

/**
 * The state directory: the setting (absolute, "~/...", or relative to the workspace folder),
 * else the extension's storage for this workspace, else its global storage.
 */
export function stateDirectory(context: vscode.ExtensionContext, s: ExtensionSettings = settings().settings): string {
  const set = s.stateDirectory;
  if (set) {
    const home = set === '~' || set.startsWith('~/') ? path.join(os.homedir(), set.slice(1)) : set;
    return path.isAbsolute(home) ? home : path.resolve(workspaceFolder() ?? os.homedir(), home);
  }
  return (context.storageUri ?? context.globalStorageUri).fsPath;
}
