// issue_file's check before approval (issue #23 item 3): a cause already filed is not put to a person.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTracker, type TrackerService } from '../../src/tracker/service';
import { TrackerClient } from '../../src/tracker/client';
import { issueFileTool } from '../../src/tools/issue-file';
import { context } from './support';

const WS = os.tmpdir();
const ISSUE = { title: 'done after delete crashes', body: 'Seen in crashes/done-after-delete/a.txt.', cause: 'done-after-delete' };

async function tracker(t: TestContext): Promise<TrackerService> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-issue-settled-'));
  const svc = await startTracker({ dir, port: 0, host: '127.0.0.1' });
  t.after(async () => {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return svc;
}

test('a cause already filed in this workspace is settled before approval, as "already filed as issue #N", not an error', async (t) => {
  const svc = await tracker(t);
  const tool = issueFileTool({ tracker: new TrackerClient(svc.url), keys: true });
  assert.ok(tool.settledBeforeApproval, 'issue_file checks the tracker before a person is asked');
  assert.equal(
    await tool.settledBeforeApproval(ISSUE, context(WS, { runId: 'r1', callId: 'c1', key: 'k1' })),
    undefined,
    'nothing filed yet: the person is asked',
  );
  await tool.run(ISSUE, context(WS, { runId: 'r1', callId: 'c1', key: 'k1' }));
  const later = await tool.settledBeforeApproval({ ...ISSUE, title: 'reworded' }, context(WS, { runId: 'r2', callId: 'c1', key: 'k2' }));
  assert.deepEqual(later, {
    content: `already filed as issue #1: ${ISSUE.title} (cause done-after-delete, by run r1); not filed again, and nobody was asked to approve it`,
  });
  assert.equal(
    await tool.settledBeforeApproval(ISSUE, context(`${WS}-other`, { runId: 'r3', callId: 'c1', key: 'k3' })),
    undefined,
    'another workspace is asked',
  );
  assert.equal((await svc.store.list()).length, 1, 'the check files nothing');
});
