/**
 * In a monorepo the tests run in the package that holds them: the nearest folder above the test
 * files (up to the workspace's root) with its own package.json, go.mod or pyproject.toml, when
 * every file named is in the same one. That package's runner and config apply (its vitest.config,
 * its jest preset), with the workspace root's install above it (Node finds node_modules up the
 * tree). All the tests, or files of different packages: the workspace's root, as before.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const PACKAGE_MARKERS = ['package.json', 'go.mod', 'pyproject.toml'];

/** The package folder (relative to `root`, "" for the root) holding every one of `rels` (root-relative test files). */
export function testPackageOf(root: string, rels: readonly string[]): string {
  let shared: string | undefined;
  for (const rel of rels) {
    const pkg = nearestPackage(root, path.posix.dirname(rel.split(path.sep).join('/')));
    if (shared !== undefined && pkg !== shared) return '';
    shared = pkg;
  }
  return shared ?? '';
}

function nearestPackage(root: string, dir: string): string {
  for (let d = dir; d !== '.' && d !== '' && d !== '/'; d = path.posix.dirname(d)) {
    if (d.split('/').includes('node_modules')) continue;
    if (PACKAGE_MARKERS.some((m) => fs.existsSync(path.join(root, d, m)))) return d;
  }
  return '';
}
