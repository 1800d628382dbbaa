// A folder's files as { "a/b.txt": text }, slash-separated and sorted, for comparing a whole tree.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function readTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(root, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}
