/**
 * What the search and the listing skip, as ripgrep does: every .gitignore (with or without a
 * .git folder), .ignore and .rgignore from the workspace root down, and the usual build and
 * dependency folders (BUILD_FOLDERS) at any depth. A path the model asks for explicitly is
 * looked inside even when it is ignored (its own name and its ancestors are not tested).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders skipped at any depth unless the path asked for goes through them. */
export const BUILD_FOLDERS: readonly string[] = [
  '.git',
  'node_modules',
  'dist',
  'build',
  'target',
  '.venv',
  'venv',
  'vendor',
  'coverage',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.tox',
  '.gradle',
  '.next',
  '.nuxt',
  '.cache',
  '.terraform',
  '.svn',
  '.hg',
];

export const IGNORE_FILES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

/** The build folders skipped for a walk that starts at `startRel` (those it goes through are not). */
export function skippedBuildFolders(startRel: string): Set<string> {
  const through = new Set(startRel.split('/'));
  return new Set(BUILD_FOLDERS.filter((f) => !through.has(f)));
}

/** One folder's ignore files as one matcher, with paths relative to that folder. */
interface Layer {
  dirRel: string;
  ig: Ignore;
}

/** The ignore rules in force in one folder: its ancestors' layers and its own. */
export class IgnoreRules {
  private constructor(
    private readonly layers: readonly Layer[],
    private readonly build: ReadonlySet<string>,
  ) {}

  /** The rules for a walk of `startRel` (workspace-relative) in `workspace`: ignore files from the root down to it. */
  static forStart(workspace: string, startRel: string): IgnoreRules {
    const build = skippedBuildFolders(startRel);
    let rules = new IgnoreRules([], build);
    const parts = startRel === '.' ? [] : startRel.split('/');
    for (let i = 0; i <= parts.length; i++) {
      const dirRel = i === 0 ? '.' : parts.slice(0, i).join('/');
      const layer = readLayer(workspace, dirRel);
      // A rule that ignores the folder asked for (or one on the way) is not applied below it.
      if (layer && !ignoresWay(layer, parts)) rules = new IgnoreRules([...rules.layers, layer], build);
    }
    return rules;
  }

  /** The rules below the folder `dirRel`, adding its own ignore files. */
  enter(workspace: string, dirRel: string): IgnoreRules {
    const layer = readLayer(workspace, dirRel);
    return layer ? new IgnoreRules([...this.layers, layer], this.build) : this;
  }

  /** The reason the entry `rel` (a folder when `dir`) is skipped, or undefined. */
  skips(rel: string, dir: boolean): string | undefined {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (dir && this.build.has(name)) return 'a build or dependency folder';
    let verdict: string | undefined;
    for (const l of this.layers) {
      const sub = relativeTo(l.dirRel, rel);
      if (sub === undefined) continue;
      const r = l.ig.test(dir ? `${sub}/` : sub);
      if (r.ignored) verdict = `${l.dirRel === '.' ? '' : `${l.dirRel}/`}ignore rules`;
      else if (r.unignored) verdict = undefined;
    }
    return verdict;
  }
}

function ignoresWay(layer: Layer, parts: readonly string[]): boolean {
  for (let i = 1; i <= parts.length; i++) {
    const sub = relativeTo(layer.dirRel, parts.slice(0, i).join('/'));
    if (sub !== undefined && sub !== '' && layer.ig.test(`${sub}/`).ignored) return true;
  }
  return false;
}

function relativeTo(dirRel: string, rel: string): string | undefined {
  if (dirRel === '.') return rel;
  if (rel === dirRel) return '';
  return rel.startsWith(`${dirRel}/`) ? rel.slice(dirRel.length + 1) : undefined;
}

function readLayer(workspace: string, dirRel: string): Layer | undefined {
  let ig: Ignore | undefined;
  for (const f of IGNORE_FILES) {
    let text: string;
    try {
      const abs = path.join(workspace, ...dirRel.split('/'), f);
      if (!fs.lstatSync(abs).isFile()) continue;
      text = fs.readFileSync(abs, 'utf8');
    } catch {
      continue;
    }
    ig = (ig ?? ignore({ allowRelativePaths: true, ignorecase: false })).add(text);
  }
  return ig ? { dirRel, ig } : undefined;
}
