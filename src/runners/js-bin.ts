/**
 * Finding a JavaScript test runner installed in the workspace (node_modules, here or in a
 * folder above, as Node resolves it) and the script its package.json names as its bin.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface InstalledPackage {
  dir: string;
  version: string;
  /** Absolute path of the bin script. */
  bin: string;
}

export function installedBin(root: string, pkg: string, binName = pkg): InstalledPackage | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, 'node_modules', pkg);
    const manifest = readJson(path.join(pkgDir, 'package.json'));
    if (manifest) {
      const bin = manifest.bin;
      const rel = typeof bin === 'string' ? bin : bin && typeof bin === 'object' ? (bin as Record<string, unknown>)[binName] : undefined;
      if (typeof rel === 'string') return { dir: pkgDir, version: String(manifest.version ?? '?'), bin: path.join(pkgDir, rel) };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
