/**
 * The hidden marker a filed GitHub issue carries at the end of its body: an HTML comment (not
 * shown on GitHub) holding the call's idempotency key, the cause and the run, each
 * percent-encoded (so no value can close the comment):
 *   <!-- durable-triage key=0123...ef cause=parse-duration-type-error run=crash-folder-2025... -->
 * With the label of ours on the issue, it is how the lookup finds a filing again.
 */

export const LABEL = 'durable-triage';

export interface Marker {
  key?: string;
  cause: string;
  runId?: string;
}

const MARKER = /\n*<!-- durable-triage((?: [a-z]+=[^\s>]*)*) -->\s*$/;

export function withMarker(body: string, m: Marker): string {
  const parts = [
    m.key !== undefined ? `key=${encodeURIComponent(m.key)}` : '',
    `cause=${encodeURIComponent(m.cause)}`,
    m.runId !== undefined ? `run=${encodeURIComponent(m.runId)}` : '',
  ].filter(Boolean);
  return `${body.replace(/\s+$/, '')}\n\n<!-- durable-triage ${parts.join(' ')} -->\n`;
}

/** The marker and the body without it; no marker: undefined (an issue not filed by us). */
export function readMarker(body: string | null | undefined): { marker: Marker; body: string } | undefined {
  if (!body) return undefined;
  const m = MARKER.exec(body);
  if (!m) return undefined;
  const fields = new Map<string, string>();
  for (const kv of m[1].trim().split(' ').filter(Boolean)) {
    const eq = kv.indexOf('=');
    try {
      fields.set(kv.slice(0, eq), decodeURIComponent(kv.slice(eq + 1)));
    } catch {
      return undefined;
    }
  }
  const cause = fields.get('cause');
  if (cause === undefined) return undefined;
  const marker: Marker = { cause };
  if (fields.has('key')) marker.key = fields.get('key')!;
  if (fields.has('run')) marker.runId = fields.get('run')!;
  return { marker, body: body.slice(0, m.index) };
}
