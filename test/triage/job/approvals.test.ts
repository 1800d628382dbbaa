import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApprovals } from '../../../src/triage/job';
import { triageTools } from '../../../src/tools';
import { TrackerClient } from '../../../src/tracker/client';

const tools = (): ReturnType<typeof triageTools> => triageTools({ tracker: new TrackerClient('http://127.0.0.1:9'), keys: true });

test('an approval list decides exactly which tools wait for a yes; "*" means all', () => {
  const byName = (list?: string[]) => new Map(withApprovals(tools(), list).map((t) => [t.name, t.needsApproval === true]));
  assert.equal(byName(undefined).get('issue_file'), true, 'without a list, the tools declare it');
  assert.equal(byName(undefined).get('code_patch'), false);
  const listed = byName(['issue_file', 'code_patch']);
  assert.equal(listed.get('code_patch'), true);
  assert.equal(listed.get('write_file'), false);
  assert.equal(byName([]).get('issue_file'), false);
  assert.ok([...byName(['*']).values()].every(Boolean));
});

test('the view keeps a tool live: issue_file still asks its tracker for the key retention', async () => {
  const client = new TrackerClient('http://127.0.0.1:9', { retentionMs: 5 * 60_000 });
  const [issue] = withApprovals(triageTools({ tracker: client, keys: true }), ['issue_file']).filter((t) => t.name === 'issue_file');
  assert.equal(await issue.keyed?.retention(new AbortController().signal), 5 * 60_000);
  assert.equal(issue.needsApproval, true);
  assert.equal(typeof issue.run, 'function');
});
