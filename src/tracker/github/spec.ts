/**
 * Which tracker a run files into, as the user names it: "embedded" (the default: this state
 * folder's own tracker), "github:OWNER/REPO", or the URL of a tracker service
 * (`triage tracker serve`). The GitHub API's base is GITHUB_API_URL (GitHub Enterprise:
 * https://HOST/api/v3), default the public API.
 */
import { BadInputError } from '../../core/errors';

export const GITHUB_API_DEFAULT = 'https://api.github.com';

export type TrackerSpec = { kind: 'embedded' } | { kind: 'github'; owner: string; repo: string } | { kind: 'http'; url: string };

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;

export function parseTrackerSpec(text: string | undefined): TrackerSpec {
  const t = (text ?? '').trim();
  if (t === '' || t === 'embedded') return { kind: 'embedded' };
  if (t.startsWith('github:')) {
    const [owner, repo, ...rest] = t.slice('github:'.length).split('/');
    if (!owner || !repo || rest.length > 0 || !NAME.test(owner) || !NAME.test(repo.replace(/\.git$/, ''))) {
      throw new BadInputError(`The tracker "${t}" is not github:OWNER/REPO (e.g. github:octo-org/octo-repo).`);
    }
    return { kind: 'github', owner, repo: repo.replace(/\.git$/, '') };
  }
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    throw new BadInputError(`The tracker "${t}" is neither "embedded", github:OWNER/REPO, nor a tracker URL (http://HOST:PORT).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadInputError(`The tracker URL ${t} should be http:// or https://.`);
  return { kind: 'http', url: t };
}

/** The API base from GITHUB_API_URL (a path such as /api/v3 kept), without a trailing slash. */
export function githubApiUrl(env: NodeJS.ProcessEnv = process.env): string {
  const raw = (env.GITHUB_API_URL ?? '').trim();
  if (raw === '') return GITHUB_API_DEFAULT;
  try {
    new URL(raw);
  } catch {
    throw new BadInputError(`GITHUB_API_URL "${raw}" is not a URL (e.g. https://github.example.com/api/v3).`);
  }
  return raw.replace(/\/+$/, '');
}

/** "github:OWNER/REPO" for a git remote URL of github.com (or the given host), else undefined: the editor's default for the origin remote. */
export function githubSpecOfRemote(remote: string, host = 'github.com'): string | undefined {
  const h = host.replace(/[.]/g, '\\.');
  const m = new RegExp(`^(?:https?://(?:[^@/]+@)?${h}/|git@${h}:|ssh://git@${h}/)([^/]+)/([^/]+?)(?:\\.git)?/?$`).exec(remote.trim());
  return m ? `github:${m[1]}/${m[2]}` : undefined;
}

/**
 * The web address of issue `n` of OWNER/REPO for the API at `apiUrl`, used when GitHub's answer
 * has no html_url: api.github.com -> https://github.com; GitHub Enterprise Server
 * (https://HOST/api/v3) -> https://HOST; GHE.com (https://api.SUBDOMAIN.ghe.com) -> https://SUBDOMAIN.ghe.com.
 */
export function githubIssueWebUrl(apiUrl: string, owner: string, repo: string, n: number): string {
  const u = new URL(apiUrl);
  let web = u.origin;
  if (/\/api\/v3\/?$/.test(u.pathname)) web = u.origin + u.pathname.replace(/\/api\/v3\/?$/, '');
  else if (u.hostname.startsWith('api.')) web = `${u.protocol}//${u.host.slice('api.'.length)}`;
  return `${web}/${owner}/${repo}/issues/${n}`;
}
