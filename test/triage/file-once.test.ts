import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OnceFiler, filingKey } from '../../src/triage/file-once';
import type { Tracker } from '../../src/tracker/tracker';
import type { TrackerIssue } from '../../src/tracker/store';

/** A tracker that keeps no keys (as GitHub): exactly-once rests on asking by key first. */
function memoryTracker(): Tracker & { issues: TrackerIssue[] } {
  const issues: TrackerIssue[] = [];
  return {
    issues,
    name: 'memory',
    honoursKeys: false,
    keyRetention: async () => 0,
    async fileIssue(input, o = {}) {
      const issue: TrackerIssue = { ...input, number: issues.length + 1, createdAt: new Date(0).toISOString(), ...(o.key ? { key: o.key } : {}) };
      issues.push(issue);
      return { issue, replayed: false };
    },
    byKey: async (key) => issues.find((i) => i.key === key),
    search: async () => issues,
    get: async (n) => issues[n - 1],
  };
}

const ARGS = { title: 't', body: 'b', cause: 'c' };

test('the same caller key files once, also when the calls overlap', async () => {
  const t = memoryTracker();
  const f = new OnceFiler();
  const [a, b] = await Promise.all([f.file(t, 'memory', ARGS, 'k1'), f.file(t, 'memory', ARGS, 'k1')]);
  const c = await f.file(t, 'memory', ARGS, 'k1');
  assert.equal(t.issues.length, 1);
  assert.deepEqual([a.issue.number, b.issue.number, c.issue.number], [1, 1, 1]);
  assert.deepEqual([a.replayed, b.replayed, c.replayed], [false, true, true]);
  await f.file(t, 'memory', ARGS, 'k2');
  assert.equal(t.issues.length, 2, 'another key is another filing');
});

test("keys: the caller's namespaced, else derived from the tracker and arguments (stable, and different for a different issue)", () => {
  assert.equal(filingKey(ARGS, 'x', 'abc').key, 'mcp-abc');
  const d = filingKey(ARGS, 'embedded');
  assert.equal(d.derived, true);
  assert.equal(filingKey(ARGS, 'embedded').key, d.key);
  assert.notEqual(filingKey({ ...ARGS, title: 'u' }, 'embedded').key, d.key);
  assert.notEqual(filingKey(ARGS, 'github:o/r').key, d.key);
  assert.notEqual(filingKey({ ...ARGS, workspace: '/w' }, 'embedded').key, d.key);
  assert.throws(() => filingKey(ARGS, 'x', 'has space'), /visible ASCII/);
  assert.throws(() => filingKey(ARGS, 'x', ''));
});
