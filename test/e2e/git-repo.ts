// A real git remote for a scenario: a bare repository holding a fixture's files as its first
// commit on main, and a clone of it (origin = the bare repository) to open as the workspace.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.com' },
  }).trim();
}

/** Makes dir/remote.git (bare, main = the fixture's files) and dir/clone (its clone); returns both paths. */
export function bareRemoteAndClone(fixture: string, dir: string): { remote: string; clone: string } {
  const seed = path.join(dir, 'seed');
  const remote = path.join(dir, 'remote.git');
  const clone = path.join(dir, 'clone');
  fs.cpSync(fixture, seed, { recursive: true });
  git(seed, 'init', '--quiet', '--initial-branch=main');
  git(seed, 'add', '-A');
  git(seed, 'commit', '--quiet', '-m', 'The durations tool');
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', remote);
  git(seed, 'push', '--quiet', remote, 'main');
  git(dir, 'clone', '--quiet', remote, clone);
  fs.rmSync(seed, { recursive: true, force: true });
  return { remote, clone };
}

/** The branches of a repository (bare or not), by name. */
export function branches(repo: string): string[] {
  return git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n').filter(Boolean).sort();
}
