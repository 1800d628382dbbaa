/**
 * "Show Details" for a question: the patch in the diff editor, anything else as a rendered
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
  const uri = docs.put(folder, view.name, view.content);
  // Rendered (the built-in markdown preview), named after what it shows; the plain text where the preview is missing.
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  } catch {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}
