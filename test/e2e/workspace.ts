// A test's own copy of a sample workspace, and its .vscode/settings.json.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Copies src (e.g. samples/<task>/workspace) to dest, which must not exist yet. */
export function copyWorkspace(src: string, dest: string): string {
  if (!fs.existsSync(src)) throw new Error(`sample workspace ${src} does not exist`);
  fs.cpSync(src, dest, { recursive: true, errorOnExist: true, force: false });
  return dest;
}

function settingsPath(workspace: string): string {
  return path.join(workspace, '.vscode', 'settings.json');
}

export function readWorkspaceSettings(workspace: string): Record<string, unknown> {
  const p = settingsPath(workspace);
  if (!fs.existsSync(p)) return {};
  return JSON.parse(fs.readFileSync(p, 'utf8')) as Record<string, unknown>;
}

/** Merges settings into the workspace's .vscode/settings.json; a value of undefined removes the key. */
export function updateWorkspaceSettings(workspace: string, settings: Record<string, unknown>): void {
  const merged = readWorkspaceSettings(workspace);
  for (const [k, v] of Object.entries(settings)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  fs.mkdirSync(path.dirname(settingsPath(workspace)), { recursive: true });
  fs.writeFileSync(settingsPath(workspace), JSON.stringify(merged, null, 2) + '\n');
}
