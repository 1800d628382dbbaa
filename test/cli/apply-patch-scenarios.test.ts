// The apply_patch scenario table (test/tools/apply-patch-scenarios.ts), run through `triage tool apply_patch --allow-writes`, one process per row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { triage } from './support';
import { tempDir } from '../support/temp-dir';
import { readTree } from '../support/read-tree';
import { writeTree } from '../tools/support';
import { SCENARIOS } from '../tools/apply-patch-scenarios';
import { EXIT } from '../../src/cli/exitcodes';

for (const s of SCENARIOS) {
  test(`triage tool apply_patch: ${s.name}`, async (t) => {
    const ws = tempDir(t);
    await writeTree(ws, s.tree);
    const r = triage(['tool', 'apply_patch', '--workspace', ws, '--allow-writes', '--args', JSON.stringify({ input: s.patch })]);
    assert.equal(r.status, s.after === undefined ? EXIT.badInput : EXIT.done, r.stderr + r.stdout);
    assert.match(r.stdout.trimEnd(), s.result);
    assert.deepEqual(readTree(ws), s.after ?? s.tree);
  });
}
