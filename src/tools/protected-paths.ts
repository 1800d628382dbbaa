/**
 * The files the agent's write tools never write (write_file, code_patch, any tool that uses
 * writeTarget): Git's and the installed packages' folders, and every file that configures a
 * tool or the editor. A write there could turn off the agent's own safeguards (VS Code
 * settings) or run commands outside the run (a Git hook or filter driver, a CI workflow, a dev
 * container's commands, an .npmrc script-shell, a direnv .envrc). Reading them stays allowed.
 *
 * Each entry matches at any depth of the workspace. Names are compared as a case-insensitive
 * file system compares them (foldName), so ".GIT/config", ".git./x" and "Node_Modules/x" are
 * refused as ".git/config", ".git/x" and "node_modules/x" are.
 */
import { foldName } from '../workspace/fold-name';

export interface ProtectedPath {
  /** Names separated by "/"; "*" in a name matches any characters. */
  readonly pattern: string;
  /** "folder": the path is this folder or goes through it; "file": the path ends with this name. */
  readonly kind: 'folder' | 'file';
  /** What the files there do, for the refusal and the docs. */
  readonly why: string;
}

/** The refused paths, most specific first (the first match names the reason). */
export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  { pattern: '.git', kind: 'folder', why: "Git's own data: its hooks and config run commands" },
  { pattern: 'node_modules', kind: 'folder', why: 'installed packages, whose code runs with the tests' },
  { pattern: '.git*', kind: 'file', why: 'Git settings (.gitattributes can name filter drivers that run commands, .gitmodules fetches other repositories)' },
  { pattern: '.github/workflows', kind: 'folder', why: "GitHub Actions workflows, which run with the repository's secrets" },
  { pattern: '.github/actions', kind: 'folder', why: 'GitHub Actions actions, which workflows run' },
  { pattern: '.circleci', kind: 'folder', why: 'CircleCI pipelines' },
  { pattern: '.vscode', kind: 'folder', why: "VS Code settings, tasks and launch configurations (among them the agent's own safeguards)" },
  { pattern: '*.code-workspace', kind: 'file', why: 'VS Code workspace settings and tasks' },
  { pattern: '.devcontainer', kind: 'folder', why: 'dev container configuration, whose commands run when the container is built' },
  { pattern: '.devcontainer.json', kind: 'file', why: 'dev container configuration, whose commands run when the container is built' },
  { pattern: '.idea', kind: 'folder', why: 'JetBrains IDE settings and run configurations' },
  { pattern: '.editorconfig', kind: 'file', why: 'editor settings' },
  { pattern: '.husky', kind: 'folder', why: 'Git hooks installed by husky' },
  { pattern: '.pre-commit-config.yaml', kind: 'file', why: 'pre-commit hooks, which run on every commit' },
  { pattern: 'lefthook.yml', kind: 'file', why: 'Git hooks run by lefthook' },
  { pattern: '.lefthook.yml', kind: 'file', why: 'Git hooks run by lefthook' },
  { pattern: '.npmrc', kind: 'file', why: 'npm settings (registry, tokens, the shell scripts run in)' },
  { pattern: '.yarnrc', kind: 'file', why: 'Yarn settings' },
  { pattern: '.yarnrc.yml', kind: 'file', why: 'Yarn settings (yarnPath names a file Yarn runs)' },
  { pattern: '.yarn', kind: 'folder', why: "Yarn's release, plugins and install state, which Yarn runs" },
  { pattern: '.pnp.cjs', kind: 'file', why: "Yarn's module loader, which Node runs" },
  { pattern: '.pnp.loader.mjs', kind: 'file', why: "Yarn's module loader, which Node runs" },
  { pattern: '.pnpmfile.cjs', kind: 'file', why: 'pnpm hooks, which run on install' },
  { pattern: '.envrc', kind: 'file', why: 'a direnv script, which the shell runs on entering the folder' },
  { pattern: '.env*', kind: 'file', why: 'environment variables (often secrets) that tools load' },
  { pattern: '.mise.toml', kind: 'file', why: 'mise settings (tools, environment, tasks)' },
  { pattern: 'mise.toml', kind: 'file', why: 'mise settings (tools, environment, tasks)' },
];

interface Compiled {
  entry: ProtectedPath;
  names: RegExp[];
}

const COMPILED: readonly Compiled[] = PROTECTED_PATHS.map((entry) => ({
  entry,
  names: entry.pattern.split('/').map((n) => new RegExp(`^${n.split('*').map(escapeRegExp).join('.*')}$`)),
}));

/** The entry that protects `rel` (a workspace-relative path with forward slashes), if any. */
export function protectedBy(rel: string): ProtectedPath | undefined {
  const names = rel
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .map(foldName);
  for (const c of COMPILED) {
    const k = c.names.length;
    if (c.entry.kind === 'file') {
      if (names.length >= k && matchesAt(c.names, names, names.length - k)) return c.entry;
    } else {
      for (let i = 0; i + k <= names.length; i++) if (matchesAt(c.names, names, i)) return c.entry;
    }
  }
  return undefined;
}

/** The refusal's wording for a path `entry` protects. */
export function protectedReason(entry: ProtectedPath): string {
  const where = entry.kind === 'folder' ? `files inside ${entry.pattern}` : `${entry.pattern} files`;
  return `${where} are not the agent's to change: ${entry.why}. Reading them is allowed`;
}

function matchesAt(pattern: readonly RegExp[], names: readonly string[], at: number): boolean {
  return pattern.every((re, j) => re.test(names[at + j]));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
