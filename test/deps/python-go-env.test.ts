import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isPythonProject, pythonEnv } from '../../src/deps/python-env';
import { checkGoModules, coldLines, goEnv, goModuleDir } from '../../src/deps/go-env';
import { ToolMissingError } from '../../src/deps/errors';
import { DEFAULT_DEPS } from '../../src/deps/options';
import { tempDir } from '../support/temp-dir';
import { write } from './support';

/** A folder that looks like a venv to the finder (pyvenv.cfg and bin/python). */
const venv = (at: string): Record<string, string> => ({ [`${at}/pyvenv.cfg`]: 'home = /usr/bin\n', [`${at}/bin/python`]: '' });

test('a Python project is known by its marker files or its test_*.py files', (t) => {
  const dir = tempDir(t);
  assert.equal(isPythonProject(dir), false);
  write(dir, { 'tests/test_app.py': '' });
  assert.equal(isPythonProject(dir), true);
  const other = tempDir(t);
  write(other, { 'pyproject.toml': '' });
  assert.equal(isPythonProject(other), true);
});

test('the checkout’s .venv (or venv, up to the repository’s top) is the tests’ Python; the worktree (and its src/) comes first on the import path', (t) => {
  const root = tempDir(t, 'triage-py-');
  const checkout = path.join(root, 'checkout');
  const worktree = path.join(root, 'wt');
  write(checkout, { ...venv('.venv'), 'svc/pyproject.toml': '' });
  write(worktree, { 'svc/pyproject.toml': '', 'svc/src/app/__init__.py': '' });
  const r = pythonEnv(checkout, path.join(checkout, 'svc'), path.join(worktree, 'svc'), { PATH: '/usr/bin', PYTHONPATH: '/extra' });
  assert.equal(r.venv, path.join(checkout, '.venv'));
  assert.equal(r.because, '.venv');
  assert.equal(r.env.VIRTUAL_ENV, path.join(checkout, '.venv'));
  assert.equal(r.env.PATH, `${path.join(checkout, '.venv', 'bin')}${path.delimiter}/usr/bin`);
  assert.deepEqual(r.env.PYTHONPATH.split(path.delimiter), [path.join(worktree, 'svc', 'src'), path.join(worktree, 'svc'), '/extra']);

  write(checkout, venv('svc/venv'));
  assert.equal(pythonEnv(checkout, path.join(checkout, 'svc'), path.join(worktree, 'svc'), {}).because, path.join('svc', 'venv'), 'the nearest one wins');
});

test('no virtual environment: the Python on the PATH, said so, the worktree still first on the import path', (t) => {
  const root = tempDir(t, 'triage-py-');
  const r = pythonEnv(path.join(root, 'c'), path.join(root, 'c'), path.join(root, 'w'), {});
  assert.equal(r.venv, undefined);
  assert.match(r.because, /no virtual environment found/);
  assert.equal(r.env.VIRTUAL_ENV, undefined);
  assert.equal(r.env.PYTHONPATH, path.join(root, 'w'));
});

test('Go: the module is found up to the top; tests download nothing (GOPROXY=off, -mod=readonly, local toolchain) unless allowed', (t) => {
  const root = tempDir(t, 'triage-go-');
  write(root, { 'go.mod': 'module example.com/x\n', 'cmd/app/main.go': '' });
  assert.equal(goModuleDir(root, path.join(root, 'cmd', 'app')), root);
  assert.equal(goModuleDir(path.join(root, 'cmd'), path.join(root, 'cmd', 'app')), undefined, 'not above the repository top');
  assert.deepEqual(goEnv(root, DEFAULT_DEPS, {}), { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly' });
  assert.deepEqual(goEnv(root, DEFAULT_DEPS, { GOFLAGS: '-count=1' }).GOFLAGS, '-count=1 -mod=readonly', "the user's GOFLAGS kept");
  assert.deepEqual(goEnv(root, { ...DEFAULT_DEPS, network: 'allowed' }, {}), {});
  write(root, { 'vendor/modules.txt': '' });
  assert.equal(goEnv(root, DEFAULT_DEPS, {}).GOFLAGS, undefined, 'a vendoring module: Go picks -mod=vendor itself');
});

test('Go: the check runs with the environment it is given, not this process’s (no go on its PATH: ToolMissingError naming go)', async (t) => {
  const root = tempDir(t, 'triage-go-env-');
  write(root, { 'go.mod': 'module example.com/x\n\ngo 1.19\n' });
  await assert.rejects(checkGoModules(root, { GOPROXY: 'off' }, { PATH: root }), (e: unknown) => e instanceof ToolMissingError && e.tool === 'go');
});

test('Go: a cold module cache is told by the module go tried to download and its error, not by the packages go list printed', () => {
  const tail = [
    'go: downloading example.com/units v1.2.0',
    "can't load test package: quota/quota.go:4:8: module lookup disabled by GOPROXY=off",
    'quota/quota.go:4:8: module lookup disabled by GOPROXY=off',
    'io/fs',
    'os',
    'fmt',
    'example.com/quota/cmd/quota',
  ].join('\n');
  assert.equal(coldLines(tail), 'go: downloading example.com/units v1.2.0 / quota/quota.go:4:8: module lookup disabled by GOPROXY=off');
});
