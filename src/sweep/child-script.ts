/**
 * Which script a sweep's child process runs. From the esbuild bundle (dist/sweep.js) it is the
 * bundled one beside it. From tsc's output (the tests, out/src/sweep) it is the bundle in the
 * project's dist/ too when that bundle is as new as every compiled file under out/src (one
 * bundled file loads in a fraction of the time the compiled tree's hundreds of modules take,
 * which a sweep pays for each of its hundreds of children), else the compiled script, so a
 * tree rebuilt by tsc alone is never swept with an older bundle.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

let newestCompiled: number | undefined;

/** The newest modification time of the compiled files under `dir` (walked once per process). */
function newestUnder(dir: string): number {
  let newest = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  walk(dir);
  return newest;
}

/** `compiled` (a script beside this file in tsc's output), or `bundled` (its name in dist/). */
export function sweepChildScript(compiled: string, bundled: string): string {
  const beside = path.join(__dirname, compiled);
  if (!fs.existsSync(beside)) return path.join(__dirname, bundled);
  const outSrc = path.resolve(__dirname, '..');
  const bundle = path.resolve(outSrc, '..', '..', 'dist', bundled);
  let bundleTime: number;
  try {
    bundleTime = fs.statSync(bundle).mtimeMs;
  } catch {
    return beside;
  }
  newestCompiled ??= newestUnder(outSrc);
  return bundleTime >= newestCompiled ? bundle : beside;
}
