import { test } from 'node:test';
import assert from 'node:assert/strict';
import { otherRepoSpec, trackerPlan } from '../../src/extension/logic/tracker-choice';

test('own crash reports and no GitHub origin: Start still asks where to file, the embedded tracker first', () => {
  const p = trackerPlan(undefined, undefined, true);
  assert.equal(p.ask, true);
  assert.deepEqual(p.ask && p.items.map((i) => i.choice), ['embedded', 'other']);
});

test("a bundled task's sample copy without a GitHub origin files into the embedded tracker (its checks read it)", () => {
  assert.deepEqual(trackerPlan(undefined, undefined, false), { ask: false, choice: {} });
  assert.equal(trackerPlan(undefined, 'github:octo/repo', false).ask, true);
});

test('a GitHub origin is offered first; the setting decides without a question', () => {
  const p = trackerPlan(undefined, 'github:octo/repo', true);
  assert.deepEqual(p.ask && p.items.map((i) => [i.choice, i.spec]), [
    ['origin', 'github:octo/repo'],
    ['embedded', undefined],
    ['other', undefined],
  ]);
  assert.deepEqual(trackerPlan('embedded', 'github:octo/repo', true), { ask: false, choice: {} });
  assert.deepEqual(trackerPlan('github:a/b', undefined, true), { ask: false, choice: { trackerUrl: 'github:a/b' } });
});

test('another repository is typed as OWNER/REPO (a github.com URL too); anything else is explained', () => {
  assert.deepEqual(otherRepoSpec(' octo/repo '), { spec: 'github:octo/repo' });
  assert.deepEqual(otherRepoSpec('https://github.com/octo/repo/'), { spec: 'github:octo/repo' });
  assert.ok('problem' in otherRepoSpec('octo'));
  assert.ok('problem' in otherRepoSpec('a/b/c'));
});
