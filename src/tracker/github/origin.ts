/**
 * The URL of a workspace's `origin` remote, read from its git config (no git process): the
 * editor offers that repository as the default GitHub tracker. A worktree's or submodule's
 * `.git` file ("gitdir: ...") is followed, and a worktree's shared config (commondir) read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function originRemoteUrl(workspace: string): string | undefined {
  const gitDir = gitDirOf(workspace);
  if (!gitDir) return undefined;
  const common = readText(path.join(gitDir, 'commondir'));
  const configDir = common ? path.resolve(gitDir, common.trim()) : gitDir;
  const config = readText(path.join(configDir, 'config'));
  return config === undefined ? undefined : remoteUrl(config, 'origin');
}

/** `url` of `[remote "NAME"]` in a git config file's text. */
export function remoteUrl(config: string, name: string): string | undefined {
  let inSection = false;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      inSection = section[1].replace(/\s+/g, ' ') === `remote "${name}"`;
      continue;
    }
    const kv = /^url\s*=\s*(.+)$/.exec(line);
    if (inSection && kv) return kv[1].trim();
  }
  return undefined;
}

function gitDirOf(workspace: string): string | undefined {
  const dotGit = path.join(workspace, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return dotGit;
  const m = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '');
  return m ? path.resolve(workspace, m[1].trim()) : undefined;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
