/**
 * A Go module's tests in a cause's worktree use the module cache the user's checkout already
 * filled (GOMODCACHE, shared: Go's cache is per user, not per checkout) and download nothing:
 * GOPROXY=off, GOFLAGS -mod=readonly (go.mod and go.sum are never rewritten; -mod=vendor is left
 * to Go when the module vendors), GOTOOLCHAIN=local (no toolchain download), unless the user
 * allows downloads (network `allowed`). Checked when the worktree is made (`go list -deps -test`),
 * so a cold cache stops the run there, with what to do, instead of failing every test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep } from './run-step';
import { onPath } from '../runners/which';
import { CacheColdError, ToolMissingError } from './errors';
import { lastLines } from './install-failure';
import type { DepsOptions } from './options';

/** The folder holding go.mod, from the workspace's folder up to the repository's top, or undefined. */
export function goModuleDir(top: string, ws: string): string | undefined {
  const rootAbs = path.resolve(top);
  for (let dir = path.resolve(ws); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'go.mod'))) return dir;
    if (dir === rootAbs || path.dirname(dir) === dir) return undefined;
  }
}

export function goEnv(moduleDir: string, o: DepsOptions, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (o.network === 'allowed') return {};
  const vendored = fs.existsSync(path.join(moduleDir, 'vendor', 'modules.txt'));
  const flags = [base.GOFLAGS ?? '', vendored ? '' : '-mod=readonly'].filter((f) => f.trim() !== '').join(' ');
  return { GOPROXY: 'off', GOTOOLCHAIN: 'local', ...(flags ? { GOFLAGS: flags } : {}) };
}

/**
 * Lists every package and test dependency with the tests' environment: a module missing from the
 * cache is CacheColdError. `base` is the environment the tests get (GOMODCACHE, GOFLAGS), `env`
 * what the worktree adds to it. Any other failure (a package that does not build) is the tests' to
 * report, not a stop: its last lines are returned for the readiness note.
 */
export async function checkGoModules(
  moduleDir: string,
  env: Record<string, string>,
  base: NodeJS.ProcessEnv = process.env,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (!onPath('go', base)) throw new ToolMissingError('go', 'the repository is a Go module (go.mod)', 'install Go (e.g. apt-get install golang-go)');
  const r = await runStep({
    command: 'go',
    args: ['list', '-deps', '-test', './...'],
    cwd: moduleDir,
    env: { ...base, ...env }, // the caller's environment (its GOMODCACHE, GOPROXY, GOFLAGS), not this process's
    timeoutMs: 120_000,
    ...(signal ? { signal } : {}),
  });
  if (r.exitCode === 0) return undefined;
  if (COLD.test(r.tail))
    throw new CacheColdError(
      'Go',
      coldLines(r.tail),
      'Run `go mod download` in your checkout (it fills the module cache the worktrees share), or allow downloads with --deps-network allowed.',
    );
  return lastLines(r.tail, 3);
}

const COLD = /GOPROXY=off|module lookup disabled|cannot find module providing package|missing go\.sum entry|toolchain not available|GOTOOLCHAIN=local/;

/**
 * What go said about the modules it lacks: its "downloading <module> <version>" lines (the
 * module's name) and its errors, each once. The tail mixes in go list's stdout (the packages it
 * listed), which names nothing missing.
 */
export function coldLines(tail: string): string {
  const lines = tail.split('\n').map((l) => l.trim());
  const said = lines.filter((l) => /^go: downloading /.test(l) || COLD.test(l)).map((l) => l.replace(/^can't load test package: /, ''));
  return [...new Set(said)].slice(0, 4).join(' / ');
}
