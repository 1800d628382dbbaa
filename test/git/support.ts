/** Real git for the branch tests: a bare repository as the remote and a clone of it as the user's checkout. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ID = { GIT_AUTHOR_NAME: 'Person', GIT_AUTHOR_EMAIL: 'person@example.com', GIT_COMMITTER_NAME: 'Person', GIT_COMMITTER_EMAIL: 'person@example.com' };

/** git in `dir` as a person would run it (their own identity), stdout trimmed. */
export function sh(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, ...ID, GIT_TERMINAL_PROMPT: '0' }, encoding: 'utf8' }).trim();
}

export interface Repos {
  root: string;
  remote: string;
  checkout: string;
  state: string;
}

/** A bare remote with one commit on main (src/duration.js and a test), cloned as the user's checkout. */
export function makeRepos(): Repos {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-git-'));
  const remote = path.join(root, 'remote.git');
  const seed = path.join(root, 'seed');
  const checkout = path.join(root, 'checkout');
  sh(root, 'init', '--quiet', '--bare', '--initial-branch=main', remote);
  sh(root, 'init', '--quiet', '--initial-branch=main', seed);
  fs.mkdirSync(path.join(seed, 'src'));
  fs.writeFileSync(path.join(seed, 'src', 'duration.js'), 'exports.parse = (s) => s.unit.length;\n');
  sh(seed, 'add', '-A');
  sh(seed, 'commit', '--quiet', '-m', 'first');
  sh(seed, 'push', '--quiet', remote, 'main');
  sh(root, 'clone', '--quiet', remote, checkout);
  return { root, remote, checkout, state: path.join(root, 'state') };
}
