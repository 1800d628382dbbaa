/**
 * The GitHub parts of naming a tracker (the spec itself: ../spec.ts): a "github:OWNER/REPO"
 * spec, the spec for a git remote of GitHub, the API's base (GITHUB_API_URL; GitHub
 * Enterprise: https://HOST/api/v3; default the public API), and an issue's web address.
 */
import { BadInputError } from '../../core/errors';

export const GITHUB_API_DEFAULT = 'https://api.github.com';

/** How a tracker spec names a GitHub repository: "github:OWNER/REPO". */
export const GITHUB_SPEC_PREFIX = 'github:';

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;

/** OWNER and REPO of the spec `t` ("github:OWNER/REPO", a trailing .git dropped); BadInputError when it is not one. */
export function parseGithubRepo(t: string): { owner: string; repo: string } {
  const [owner, repo, ...rest] = t.slice(GITHUB_SPEC_PREFIX.length).split('/');
  if (!owner || !repo || rest.length > 0 || !NAME.test(owner) || !NAME.test(repo.replace(/\.git$/, ''))) {
    throw new BadInputError(`The tracker "${t}" is not github:OWNER/REPO (e.g. github:octo-org/octo-repo).`);
  }
  return { owner, repo: repo.replace(/\.git$/, '') };
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
  return m ? `${GITHUB_SPEC_PREFIX}${m[1]}/${m[2]}` : undefined;
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
