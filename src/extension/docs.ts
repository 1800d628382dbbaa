/**
 * Read-only virtual documents: the agent's recorded version of a file (from the content
 * store), the details of a question, and a run's current state. See logic/blob-uri.ts.
 */
import * as vscode from 'vscode';
import { BlobStore } from '../disk/blob-store';
import { BLOB_SCHEME, DOC_SCHEME, STATE_SCHEME, blobUriParts, missingUriParts, parseBlobQuery, parseStateUri, stateUriParts } from './logic/blob-uri';
import * as core from './lazy-modules';
import type { RunStore } from '../store/run-store';

export function blobUri(stateDir: string, sha256: string, relPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BLOB_SCHEME, ...blobUriParts(stateDir, sha256, relPath) });
}

export function missingUri(relPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BLOB_SCHEME, ...missingUriParts(relPath) });
}

export function stateUri(stateDir: string, runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: STATE_SCHEME, ...stateUriParts(stateDir, runId) });
}

/** The window's store when it is the one an address names (a shared store is named by its URL without password). */
type StoreOf = (where: string) => Promise<RunStore | undefined>;

class BlobDocs implements vscode.TextDocumentContentProvider {
  constructor(private readonly storeOf: StoreOf) {}
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseBlobQuery(uri.query);
    if (!ref) return `(not a Durable Triage content-store address: ${uri.toString()})`;
    if (ref.kind === 'missing') return '';
    const shared = await this.storeOf(ref.stateDir);
    const buf = shared ? await shared.getBlob(ref.sha256) : await new BlobStore(ref.stateDir).get(ref.sha256);
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
  constructor(private readonly storeOf: StoreOf) {}
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseStateUri(uri.path, uri.query);
    if (!ref) return `(not a Durable Triage run address: ${uri.toString()})`;
    try {
      return await core.runAdmin().showState((await this.storeOf(ref.stateDir)) ?? ref.stateDir, ref.runId);
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

export function registerDocs(context: vscode.ExtensionContext, store: () => Promise<RunStore>): Docs {
  const storeOf: StoreOf = async (where) => {
    const s = await store();
    return s.kind === 'postgres' && s.where === where ? s : undefined;
  };
  const memory = new MemoryDocs();
  const state = new StateDocs(storeOf);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(BLOB_SCHEME, new BlobDocs(storeOf)),
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
