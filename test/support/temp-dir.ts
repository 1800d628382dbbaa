/** The tests' one temp folder helper. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';

/** A fresh folder under os.tmpdir(), removed (with everything in it) when test `t` ends, passed or failed. */
export function tempDir(t: TestContext, prefix = 'triage-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
