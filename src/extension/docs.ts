/**
 * Read-only virtual documents: the agent's recorded version of a file (from the content
 * store), the details of a question, and a run's current state. See logic/blobUri.ts.
 */
import * as vscode from 'vscode';
import { BlobStore } from '../durable/blobs';
import { BLOB_SCHEME, DOC_SCHEME, STATE_SCHEME, blobUriParts, missingUriParts, parseBlobQuery, parseStateUri, stateUriParts } from './logic/blobUri';
import * as core from './core';

export function blobUri(stateDir: string, sha256: string, relPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BLOB_SCHEME, ...blobUriParts(stateDir, sha256, relPath) });
}

export function missingUri(relPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BLOB_SCHEME, ...missingUriParts(relPath) });
}

export function stateUri(stateDir: string, runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: STATE_SCHEME, ...stateUriParts(stateDir, runId) });
}

class BlobDocs implements vscode.TextDocumentContentProvider {
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseBlobQuery(uri.query);
    if (!ref) return `(not a Durable Triage content-store address: ${uri.toString()})`;
    if (ref.kind === 'missing') return '';
    const buf = await new BlobStore(ref.stateDir).get(ref.sha256);
    return buf ? buf.toString('utf8') : `(the agent's version ${ref.sha256} is not in the content store ${ref.stateDir}/blobs)`;
  }
}

/** Documents held in memory for this window (question details); a reload forgets them, the run asks again. */
export class MemoryDocs implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private next = 0;

  put(folder: string, name: string, content: string): vscode.Uri {
    const id = String(++this.next);
    this.docs.set(id, content);
    if (this.docs.size > 200) this.docs.delete(this.docs.keys().next().value as string);
    return vscode.Uri.from({ scheme: DOC_SCHEME, path: `/${folder.replace(/[/\\]/g, '_')}/${name}`, query: `id=${id}` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = new URLSearchParams(uri.query).get('id') ?? '';
    return this.docs.get(id) ?? '(these details are gone after a reload; the run shows them again when it asks)';
  }
}

class StateDocs implements vscode.TextDocumentContentProvider {
  readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseStateUri(uri.path, uri.query);
    if (!ref) return `(not a Durable Triage run address: ${uri.toString()})`;
    try {
      return await core.runAdmin().showState(ref.stateDir, ref.runId);
    } catch (e) {
      return `(run ${ref.runId} cannot be shown: ${(e as Error).message})`;
    }
  }
}

export interface Docs {
  memory: MemoryDocs;
  /** Re-reads an open "Open Checkpoint" document of the run. */
  refreshState(stateDir: string, runId: string): void;
}

export function registerDocs(context: vscode.ExtensionContext): Docs {
  const memory = new MemoryDocs();
  const state = new StateDocs();
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(BLOB_SCHEME, new BlobDocs()),
    vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, memory),
    vscode.workspace.registerTextDocumentContentProvider(STATE_SCHEME, state),
    state.changed,
  );
  return {
    memory,
    refreshState(stateDir, runId) {
      const uri = stateUri(stateDir, runId);
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) state.changed.fire(uri);
    },
  };
}
