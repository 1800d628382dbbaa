/**
 * The one check of a model server's base URL, wherever one comes from (--base-url, the
 * durableTriage.model.baseUrl setting, ANTHROPIC_BASE_URL / OPENAI_BASE_URL, a run's saved
 * config). A URL with a user name or password ("http://user:secret@host") is refused at once:
 * fetch cannot send one (every call would fail and be retried for nothing), and the URL is
 * shown in messages and saved with the run, secret and all. No message here repeats the
 * secret: a refused URL is shown without its user info, query and fragment, or not at all.
 */
import { BadInputError } from '../core/errors';

/** Where a key belongs instead of the URL. */
const KEY_HOME =
  'a key belongs in ANTHROPIC_API_KEY or OPENAI_API_KEY (or "Durable Triage: Set API Key" in the editor), never in the URL, where it would be shown and saved with the run';

/** A base URL that cannot be used, refused before any call: `source` names where it came from. */
export class BadBaseUrlError extends BadInputError {
  constructor(
    readonly source: string,
    readonly problem: string,
    fix = '',
  ) {
    super(`${source} ${problem}.${fix ? ` ${fix}` : ''}`);
  }
}

/** `url` without its user info, query and fragment: safe to show. */
function shown(u: URL): string {
  return `${u.protocol}//${u.username || u.password ? '***@' : ''}${u.host}${u.pathname}`;
}

/** Why `url` cannot be a model server's base URL ("holds a user name or password ..."), or undefined when it can. Never quotes a secret. */
export function baseUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL (a base URL looks like http://127.0.0.1:11434/v1)';
  }
  // Not shown: "user:secret@host" without a scheme parses as scheme "user:".
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'is not an http:// or https:// URL (a base URL looks like http://127.0.0.1:11434/v1)';
  if (u.username || u.password) return `holds a user name or password (${shown(u)}): ${KEY_HOME}; remove the "user:password@" part`;
  return undefined;
}

/** `url` when it can be a model server's base URL; otherwise a BadBaseUrlError naming `source` (and `fix`, what to do beyond mending the URL). */
export function checkBaseUrl(url: string, source: string, fix?: string): string {
  const problem = baseUrlProblem(url);
  if (problem) throw new BadBaseUrlError(source, problem, fix);
  return url;
}
