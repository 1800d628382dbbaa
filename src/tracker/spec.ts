/**
 * Which tracker a run files into, as the user names it: "embedded" (the default: this state
 * folder's own tracker), "github:OWNER/REPO" (its GitHub part: github/spec.ts), or the URL of
 * a tracker service (`triage tracker serve`).
 */
import { BadInputError } from '../core/errors';
import { GITHUB_SPEC_PREFIX, parseGithubRepo } from './github/spec';

export type TrackerSpec = { kind: 'embedded' } | { kind: 'github'; owner: string; repo: string } | { kind: 'http'; url: string };

/** The tracker `text` names (empty or missing: the embedded one); BadInputError for anything else. */
export function parseTrackerSpec(text: string | undefined): TrackerSpec {
  const t = (text ?? '').trim();
  if (t === '' || t === 'embedded') return { kind: 'embedded' };
  if (t.startsWith(GITHUB_SPEC_PREFIX)) return { kind: 'github', ...parseGithubRepo(t) };
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    throw new BadInputError(`The tracker "${t}" is neither "embedded", github:OWNER/REPO, nor a tracker URL (http://HOST:PORT).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadInputError(`The tracker URL ${t} should be http:// or https://.`);
  return { kind: 'http', url: t };
}
