/**
 * Which ripgrep the search runs, in this order: an explicit path (the `ripgrep` option the
 * front end passes, e.g. the editor's setting), the DURABLE_TRIAGE_RG environment variable,
 * the editor's own copy (the extension passes the paths of VS Code's bundled
 * @vscode/ripgrep), then `rg` on PATH. "off" (option or variable) turns ripgrep off: the
 * search uses its own walker (search-fallback.ts). A path given that is not an executable
 * file is skipped, so a stale setting falls back instead of failing every search.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RipgrepOptions {
  /** An explicit path to rg, or "off". */
  path?: string;
  /** Copies of rg the editor ships, tried after the explicit path and the variable. */
  bundled?: readonly string[];
}

export const RG_ENV = 'DURABLE_TRIAGE_RG';

/** The rg to run, or undefined for the fallback search. */
export function findRipgrep(o: RipgrepOptions = {}, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = [o.path, env[RG_ENV]].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  if (explicit.some((p) => p.trim().toLowerCase() === 'off')) return undefined;
  for (const p of [...explicit, ...(o.bundled ?? [])]) if (isExecutable(p)) return p;
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const p = path.join(dir, exe);
    if (isExecutable(p)) return p;
  }
  return undefined;
}

/** The paths where an editor whose install folder is `appRoot` (vscode.env.appRoot) keeps its rg. */
export function bundledRipgrepPaths(appRoot: string): string[] {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  return [
    path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
    path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
    // code-server: appRoot is lib/vscode
    path.join(appRoot, 'lib', 'vscode', 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
  ];
}

function isExecutable(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
