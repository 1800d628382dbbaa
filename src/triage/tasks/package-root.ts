/**
 * Where the package's bundled files (samples/) are. The code runs from out/src/... (tsc),
 * from an esbuild bundle in dist/, and from an installed .vsix whose root holds samples/,
 * so the root is found by walking up from this file to the first folder that has both a
 * package.json and a samples/ folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

export function findPackageRoot(from: string): string | undefined {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'samples'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The package root; throws when the samples are not installed beside the code. */
export function packageRoot(): string {
  if (cached) return cached;
  const root = findPackageRoot(__dirname);
  if (!root) throw new Error(`Cannot find the bundled samples: no folder above ${__dirname} has both package.json and samples/. Reinstall the package.`);
  cached = root;
  return root;
}
