// Every file a comment names exists (issue #19 item 6): after the tree moved, comments named files
// that were gone (src/durable/errors.ts, logic/errorView.ts, workspace-paths.ts, out/src/triage/authoring/...).
// A name resolves against the file's folder or any folder above it, against src/, or, written bare
// ("journal.ts"), as the name of a file anywhere in the tree. Quoted text is an example, not a reference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function filesBelow(dir: string, ext: string): string[] {
  return (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]).filter((f) => f.endsWith(ext)).map((f) => path.join(dir, f));
}

const SOURCES = [...filesBelow('src', '.ts'), ...filesBelow('tools', '.ts'), 'CONTRIBUTING.md'];
const NAMES = new Set([...SOURCES, ...filesBelow('test', '.ts'), ...filesBelow('scripts', '')].map((f) => path.basename(f)));
const TS_REF = /(?<![\w./-])((?:\.{1,2}\/)*[\w./-]*[\w-]+\.ts)\b/g;
const OUT_REF = /(?<![\w./-])out\/([\w./-]+)\.js\b/g;

/** The lines of a file a person reads as prose: a source file's comments, a markdown file's every line; quoted text removed. */
function proseLines(file: string): [number, string][] {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const out: [number, string][] = [];
  lines.forEach((line, i) => {
    const t = line.trim();
    const prose = file.endsWith('.md')
      ? line
      : t.startsWith('*') || t.startsWith('/*') || t.startsWith('//')
        ? line
        : line.includes('// ')
          ? line.slice(line.indexOf('// '))
          : '';
    if (prose) out.push([i + 1, prose.replace(/"[^"\n]*"/g, '""')]);
  });
  return out;
}

function resolves(file: string, ref: string): boolean {
  const exists = (p: string): boolean => fs.existsSync(path.join(ROOT, p));
  if (!ref.includes('/') && NAMES.has(ref)) return true;
  if (exists(path.join('src', ref)) || exists(ref)) return true;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, ref))) return true;
    if (dir === '.' || dir === '') return false;
  }
}

test('every .ts file and built out/ script a comment or CONTRIBUTING.md names exists', () => {
  const missing: string[] = [];
  for (const file of SOURCES) {
    for (const [n, line] of proseLines(file)) {
      for (const m of line.matchAll(TS_REF)) if (!resolves(file, m[1])) missing.push(`${file}:${n}: ${m[1]}`);
      for (const m of line.matchAll(OUT_REF)) if (!fs.existsSync(path.join(ROOT, `${m[1]}.ts`))) missing.push(`${file}:${n}: out/${m[1]}.js (no ${m[1]}.ts)`);
    }
  }
  assert.deepEqual(missing, []);
});
