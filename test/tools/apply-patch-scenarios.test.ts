// The apply_patch scenario table (apply-patch-scenarios.ts), run in process: each row's tree after the patch, and its result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchTool } from '../../src/tools/apply-patch';
import { context, writeTree, callTool } from './support';
import { tempDir } from '../support/temp-dir';
import { readTree } from '../support/read-tree';
import { SCENARIOS } from './apply-patch-scenarios';

for (const s of SCENARIOS) {
  test(`apply_patch scenario: ${s.name}`, async (t) => {
    const dir = tempDir(t);
    await writeTree(dir, s.tree);
    const ctx = context(dir);
    const r = await callTool(applyPatchTool(), { input: s.patch }, ctx);
    assert.equal(r.isError === true, s.after === undefined, r.content);
    assert.match(r.content, s.result);
    assert.deepEqual(readTree(dir), s.after ?? s.tree);
    assert.deepEqual(
      ctx.writes.map((w) => w.rel).sort(),
      s.after
        ? Object.keys(s.after)
            .filter((k) => s.after![k] !== s.tree[k])
            .sort()
        : [],
    );
  });
}
