/**
 * A Python repository's tests in a cause's worktree run with the user's own virtual environment
 * (nothing is installed: the environment is the user's, found in their checkout): `.venv` or
 * `venv` in the workspace's folder or a folder above it up to the repository's top (uv's and
 * `python -m venv`'s usual places), else Poetry's (`poetry env info -p`, when poetry.lock is there
 * and poetry is installed). The tests get its interpreter first on the PATH, VIRTUAL_ENV, and the
 * worktree first on the import path (PYTHONPATH: the workspace's folder, and its `src/` when there
 * is one), so the worktree's code is imported, not the checkout's editable install.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const PY_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'pytest.ini', 'tox.ini', 'conftest.py', 'requirements.txt'];

export interface PythonEnv {
  /** The virtual environment's folder (in the user's checkout), or undefined: the system's Python. */
  venv?: string;
  /** Where it was found: ".venv", "poetry env info -p". */
  because: string;
  env: Record<string, string>;
}

/** Whether the workspace's folder is a Python project (a marker file, or test_*.py files). */
export function isPythonProject(workspaceDir: string): boolean {
  if (PY_MARKERS.some((m) => fs.existsSync(path.join(workspaceDir, m)))) return true;
  for (const dir of ['.', 'tests', 'test']) {
    try {
      if (fs.readdirSync(path.join(workspaceDir, dir)).some((f) => /^test_.*\.py$|_test\.py$/.test(f))) return true;
    } catch {
      // no such folder
    }
  }
  return false;
}

/** The environment for pytest in the worktree's workspace folder `worktreeWs`, the venv found from the checkout's `checkoutWs` up to `checkoutTop`. */
export function pythonEnv(checkoutTop: string, checkoutWs: string, worktreeWs: string, base: NodeJS.ProcessEnv = process.env): PythonEnv {
  const found = findVenv(checkoutTop, checkoutWs, base);
  const importPath = [worktreeWs];
  if (fs.existsSync(path.join(worktreeWs, 'src'))) importPath.unshift(path.join(worktreeWs, 'src'));
  const env: Record<string, string> = {
    PYTHONPATH: [...importPath, ...(base.PYTHONPATH ? [base.PYTHONPATH] : [])].join(path.delimiter),
    PYTHONDONTWRITEBYTECODE: '1',
  };
  if (!found) return { because: 'no virtual environment found; the Python on the PATH', env };
  env.VIRTUAL_ENV = found.venv;
  env.PATH = [path.join(found.venv, 'bin'), base.PATH ?? ''].join(path.delimiter);
  return { venv: found.venv, because: found.because, env };
}

function findVenv(top: string, ws: string, base: NodeJS.ProcessEnv): { venv: string; because: string } | undefined {
  const rootAbs = path.resolve(top);
  for (let dir = path.resolve(ws); ; dir = path.dirname(dir)) {
    for (const name of ['.venv', 'venv']) {
      const venv = path.join(dir, name);
      if (isVenv(venv)) return { venv, because: path.relative(rootAbs, venv) || name };
    }
    if (fs.existsSync(path.join(dir, 'poetry.lock'))) {
      const r = spawnSync('poetry', ['env', 'info', '-p'], { cwd: dir, env: base, encoding: 'utf8', timeout: 20_000 });
      const p = r.status === 0 ? r.stdout.trim() : '';
      if (p && isVenv(p)) return { venv: p, because: 'poetry env info -p' };
    }
    if (dir === rootAbs || path.dirname(dir) === dir) return undefined;
  }
}

function isVenv(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'pyvenv.cfg')) && fs.existsSync(path.join(dir, 'bin', 'python'));
}
