/**
 * "Show Diff" for files that changed behind the agent's back: the agent's recorded version
 * (from the content store, read-only) against the current file; several files at once in
 * the multi-file changes editor where the editor has it, else one diff each.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileChange } from '../core/errors';
import { blobUri, missingUri } from './docs';
import { CHANGED_FILES_TITLE } from './logic/restored-review';

export async function showChangedDiffs(stateDir: string, workspace: string, changes: readonly FileChange[]): Promise<void> {
  const entries = changes.map((c) => {
    const left = blobUri(stateDir, c.expected, c.path);
    const right = c.actual === null ? missingUri(c.path) : vscode.Uri.file(path.join(workspace, ...c.path.split('/')));
    return { left, right, title: `${c.path}: agent's version ↔ ${c.actual === null ? 'deleted' : 'current'}` };
  });
  if (entries.length > 1) {
    try {
      await vscode.commands.executeCommand(
        'vscode.changes',
        CHANGED_FILES_TITLE,
        entries.map((e) => [e.right, e.left, e.right]),
      );
      return;
    } catch {
      // an editor without the multi-file changes editor: one diff each
    }
  }
  for (const e of entries) await vscode.commands.executeCommand('vscode.diff', e.left, e.right, e.title, { preview: entries.length === 1 });
}
