/**
 * "Show Details" for a question: the patch in the diff editor, anything else as a read-only
 * markdown document beside the editor.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DetailsView } from './logic/details';
import type { MemoryDocs } from './docs';

export async function showDetails(view: DetailsView, docs: MemoryDocs, folder: string): Promise<void> {
  if (view.kind === 'diff') {
    const name = path.posix.basename(view.path.replace(/\\/g, '/')) || 'file';
    const left = docs.put(folder, `before/${name}`, view.before);
    const right = docs.put(folder, `after/${name}`, view.after);
    await vscode.commands.executeCommand('vscode.diff', left, right, view.title, { preview: true });
    return;
  }
  const doc = await vscode.workspace.openTextDocument(docs.put(folder, view.name, view.content));
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}
