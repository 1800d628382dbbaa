/** What the tests of src/deps share: files written into a folder, and a prepareWorktree spec over a checkout and its worktree. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import type { PrepareSpec } from '../../src/deps/prepare';
import { DEFAULT_DEPS } from '../../src/deps/options';
import { tempDir } from '../support/temp-dir';

/** Writes each file (a path relative to `dir` -> its text), making the folders. */
export function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/**
 * A checkout and a cause's worktree, each holding `files`, in a temp folder removed when `t`
 * ends (the worktree under `worktreeRoot` when given: another file system); the spec defaults
 * to the default options, a just-made worktree and no package manager on the PATH.
 */
export function prepareSpec(t: TestContext, files: Record<string, string>, o: Partial<PrepareSpec> = {}, worktreeRoot?: string): PrepareSpec {
  const root = tempDir(t, 'triage-prepare-');
  const checkoutTop = path.join(root, 'checkout');
  const worktreeTop = path.join(worktreeRoot ?? root, 'worktrees', 'run', 'cause');
  write(checkoutTop, files);
  write(worktreeTop, files);
  return {
    checkoutTop,
    worktreeTop,
    prefix: '',
    options: DEFAULT_DEPS,
    record: `${worktreeTop}.ready.json`,
    log: `${worktreeTop}.install.log`,
    made: true,
    env: { PATH: '/nonexistent-bin' },
    ...o,
  };
}
