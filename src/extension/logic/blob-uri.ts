/**
 * The read-only virtual documents the extension opens, as URI parts (path and query), so
 * they can be built and parsed without the vscode module:
 *
 *   durable-triage-blob:/<file path>?state=<stateDir>&sha=<sha256>   the agent's recorded version
 *   durable-triage-blob:/<file path>?missing=1                        an empty side for a deleted file
 *   durable-triage-doc:/<runId>/<name>?id=<n>                          details shown for a question
 *   durable-triage-state:/<runId>.json?state=<stateDir>                a run's current state, pretty
 */
export const BLOB_SCHEME = 'durable-triage-blob';
export const DOC_SCHEME = 'durable-triage-doc';
export const STATE_SCHEME = 'durable-triage-state';

const SHA = /^[0-9a-f]{64}$/;

export interface UriParts {
  path: string;
  query: string;
}

export function blobUriParts(stateDir: string, sha256: string, relPath: string): UriParts {
  if (!SHA.test(sha256)) throw new TypeError(`not a SHA-256 hex digest: ${JSON.stringify(sha256)}`);
  return { path: `/${relPath.replace(/^\/+/, '')}`, query: new URLSearchParams({ state: stateDir, sha: sha256 }).toString() };
}

export function missingUriParts(relPath: string): UriParts {
  return { path: `/${relPath.replace(/^\/+/, '')}`, query: 'missing=1' };
}

export type BlobRef = { kind: 'blob'; stateDir: string; sha256: string } | { kind: 'missing' };

export function parseBlobQuery(query: string): BlobRef | undefined {
  const q = new URLSearchParams(query);
  if (q.get('missing') === '1') return { kind: 'missing' };
  const stateDir = q.get('state');
  const sha256 = q.get('sha');
  if (!stateDir || !sha256 || !SHA.test(sha256)) return undefined;
  return { kind: 'blob', stateDir, sha256 };
}

export function stateUriParts(stateDir: string, runId: string): UriParts {
  return { path: `/${runId}.json`, query: new URLSearchParams({ state: stateDir }).toString() };
}

export function parseStateUri(path: string, query: string): { stateDir: string; runId: string } | undefined {
  const stateDir = new URLSearchParams(query).get('state');
  const m = /^\/(.+)\.json$/.exec(path);
  if (!stateDir || !m) return undefined;
  return { stateDir, runId: m[1] };
}
