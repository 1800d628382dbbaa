/**
 * Which runner a workspace's tests use. A configured command wins; otherwise, in this order:
 *   - package.json: vitest, jest or mocha in devDependencies (or dependencies), or named by
 *     scripts.test; node:test when scripts.test runs `node --test` (or no runner is named);
 *   - go.mod: go test;
 *   - pytest.ini, pyproject.toml, setup.cfg, tox.ini, conftest.py or test_*.py files: pytest;
 *   - else node:test over *.test.js files (the bundled samples' way).
 * Deterministic for the same workspace state.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJson } from './js-bin';
import type { RunnerKind } from './types';

export interface RunnerPlan {
  kind: RunnerKind;
  /** Why this runner: "vitest in devDependencies", "go.mod", "the configured command". */
  because: string;
  /** The configured command (kind "command"). */
  command?: string;
}

const JS_RUNNERS = ['vitest', 'jest', 'mocha'] as const;
const PY_MARKERS = ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'conftest.py'];

export function detectRunner(root: string, configured?: string): RunnerPlan {
  if (configured && configured.trim() !== '') return { kind: 'command', because: 'the configured test command', command: configured.trim() };
  const pkg = readJson(path.join(root, 'package.json'));
  if (pkg) {
    const deps = { ...record(pkg.dependencies), ...record(pkg.devDependencies) };
    const script = typeof record(pkg.scripts).test === 'string' ? (record(pkg.scripts).test as string) : '';
    for (const r of JS_RUNNERS) if (r in record(pkg.devDependencies)) return { kind: r, because: `${r} in devDependencies` };
    for (const r of JS_RUNNERS) if (new RegExp(`(^|[\\s/])${r}(\\s|$)`).test(script)) return { kind: r, because: `scripts.test runs ${r}` };
    for (const r of JS_RUNNERS) if (r in deps) return { kind: r, because: `${r} in dependencies` };
    if (/\bnode\b.*--test\b/.test(script)) return { kind: 'node', because: 'scripts.test runs node --test' };
  }
  if (exists(root, 'go.mod')) return { kind: 'go', because: 'go.mod' };
  const marker = PY_MARKERS.find((m) => exists(root, m) && (m !== 'pyproject.toml' || /pytest/.test(readText(path.join(root, m)))));
  if (marker) return { kind: 'pytest', because: marker };
  if (hasPythonTests(root)) return { kind: 'pytest', because: 'test_*.py files' };
  return { kind: 'node', because: pkg ? 'package.json names no other runner' : 'no runner found; *.test.js files with node --test' };
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function exists(root: string, name: string): boolean {
  return fs.existsSync(path.join(root, name));
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function hasPythonTests(root: string): boolean {
  for (const dir of ['.', 'tests', 'test']) {
    try {
      if (fs.readdirSync(path.join(root, dir)).some((f) => /^test_.*\.py$|_test\.py$/.test(f))) return true;
    } catch {
      // no such folder
    }
  }
  return false;
}
