// The checks count an issue already filed for a cause as the cause's issue (issue #23 item 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { causeIssues } from '../../../src/triage/tasks/checks';

const issue = (number: number, cause: string) => ({ number, title: `t${number}`, body: '', cause });

test('a cause this run did not file takes the issue already filed for it; a cause it filed keeps its own', () => {
  assert.deepEqual(
    causeIssues([], [issue(1, 'a'), issue(2, 'b')]).map((i) => i.number),
    [1, 2],
  );
  assert.deepEqual(
    causeIssues([issue(4, 'a')], [issue(1, 'a'), issue(2, 'b'), issue(4, 'a')]).map((i) => i.number),
    [4, 2],
  );
  assert.deepEqual(
    causeIssues([issue(4, 'a')], []).map((i) => i.number),
    [4],
  );
});
