// The GitHub sign-in stand-in (test/e2e/github-signin/): an extension that answers the editor's
// GitHub Enterprise sign-in with the GitHub stand-in's token, packaged as a .vsix for a suite to
// install beside Durable Triage. The editor runs with the built-in GitHub sign-in disabled and
// GITHUB_API_URL pointing at the stand-in, so Durable Triage asks for a "github-enterprise"
// session through vscode.authentication, as it does for any GitHub Enterprise Server.
// code-server has no --disable-extension: its built-in extensions folder is replaced by one that
// links every built-in but the GitHub sign-in (and the GitHub extension that needs it).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { E2E_CACHE, REPO_ROOT } from './paths';

const execFileP = promisify(execFile);
const SOURCE = path.join(REPO_ROOT, 'test', 'e2e', 'github-signin');
const VSCE = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
const BUILTINS = path.join(E2E_CACHE, 'node_modules', 'code-server', 'lib', 'vscode', 'extensions');
const LEFT_OUT = new Set(['github-authentication', 'github']);

/** Packages the stand-in into dir/github-signin.vsix; returns its path. */
export async function packageGitHubSignin(dir: string): Promise<string> {
  const work = path.join(dir, 'github-signin-src');
  fs.cpSync(SOURCE, work, { recursive: true });
  const out = path.join(dir, 'github-signin.vsix');
  await execFileP(VSCE, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: work, timeout: 120_000 });
  return out;
}

/**
 * What the editor's server needs for the stand-in to be its GitHub: the token and API for the
 * extension hosts, and (in dir) a built-in extensions folder without the GitHub sign-in.
 */
export function gitHubSigninServer(github: { url: string; token: string }, dir: string): { serverEnv: Record<string, string>; serverArgs: string[] } {
  const builtins = path.join(dir, 'builtin-extensions');
  if (!fs.existsSync(builtins)) {
    fs.mkdirSync(builtins, { recursive: true });
    for (const name of fs.readdirSync(BUILTINS)) if (!LEFT_OUT.has(name)) fs.symlinkSync(path.join(BUILTINS, name), path.join(builtins, name));
  }
  return {
    serverEnv: { E2E_GITHUB_TOKEN: github.token, GITHUB_API_URL: github.url },
    serverArgs: ['--builtin-extensions-dir', builtins],
  };
}
