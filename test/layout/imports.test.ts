/**
 * The layering the source tree keeps (issue 19): product code never depends on the crash
 * harness (src/sweep; bin/triage.js loads its own entry for `triage sweep`), and the test
 * runners (src/runners) never depend on the agent's tools (src/tools), which use them.
 * Imports are read from the TypeScript sources.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'src', 'core'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
}
const ROOT = repoRoot();

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Every source file below src/ (repository-relative, forward slashes) -> the src files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const abs of sources(path.join(ROOT, 'src'))) {
    const text = fs.readFileSync(abs, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/g)) {
      let target = path.resolve(path.dirname(abs), m[1]);
      if (fs.existsSync(`${target}.ts`)) target = `${target}.ts`;
      else if (fs.existsSync(path.join(target, 'index.ts'))) target = path.join(target, 'index.ts');
      deps.push(path.relative(ROOT, target).split(path.sep).join('/'));
    }
    graph.set(path.relative(ROOT, abs).split(path.sep).join('/'), deps);
  }
  return graph;
}

/** The import chains from a file under `from` that reach a file under `to`. */
function chains(graph: Map<string, string[]>, from: string, to: string): string[] {
  const found: string[] = [];
  for (const start of [...graph.keys()].filter((f) => f.startsWith(from))) {
    const seen = new Set([start]);
    const stack: string[][] = [[start]];
    while (stack.length > 0) {
      const chain = stack.pop() as string[];
      for (const dep of graph.get(chain[chain.length - 1]) ?? []) {
        if (seen.has(dep)) continue;
        seen.add(dep);
        if (dep.startsWith(to)) found.push([...chain, dep].join(' -> '));
        else stack.push([...chain, dep]);
      }
    }
  }
  return found;
}

const graph = importGraph();

test('no product module imports the crash harness (src/sweep), not even the CLI for `triage sweep`', () => {
  const offenders = [...graph].filter(([f, deps]) => !f.startsWith('src/sweep/') && deps.some((d) => d.startsWith('src/sweep/'))).map(([f]) => f);
  assert.deepEqual(offenders, []);
});

test('the test runners (src/runners) reach nothing of the agent tools (src/tools)', () => {
  assert.deepEqual(chains(graph, 'src/runners/', 'src/tools/'), []);
});
