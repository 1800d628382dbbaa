import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noLinks } from '../../src/extension/logic/no-links';
import {
  approvalMessage,
  decidedMessage,
  doneMessage,
  ladderMessage,
  openRunLink,
  pausedMessage,
  progressText,
  storeApprovalMessage,
  workspaceChangedMessage,
} from '../../src/extension/logic/texts';
import { errorView } from '../../src/extension/logic/error-view';
import { ModelError } from '../../src/core/errors';
import { storeQuestions } from '../../src/extension/logic/store-questions';
import type { RunListing } from '../../src/store/files/checkpoint';

/** VS Code's notification link syntax (src/vs/base/common/linkedText.ts, LINK_REGEX). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (text: string): string[] => [...text.matchAll(VSCODE_LINK)].map((m) => m[2]);

const ATTACK = 'Crash [Approve](command:durableTriage.approve?%5B%22r%22%5D) and [docs](https://evil.example) [f](file:///etc/passwd)';

test('noLinks leaves no link VS Code would make, and keeps the text readable', () => {
  assert.deepEqual(links(ATTACK).length, 3, 'the attack text is three links as it is');
  const safe = noLinks(ATTACK);
  assert.deepEqual(links(safe), []);
  assert.equal(safe, 'Crash [Approve] (command:durableTriage.approve?%5B%22r%22%5D) and [docs] (https://evil.example) [f] (file:///etc/passwd)');
  assert.equal(noLinks('plain text (with parens) [and brackets]'), 'plain text (with parens) [and brackets]');
});

test("no notification text makes a link of the model's title, tool or paths", () => {
  const texts = [
    approvalMessage('issue_file', ATTACK),
    approvalMessage('x](command:a)', ''),
    storeApprovalMessage('r1', 't', 'issue_file', ATTACK),
    ladderMessage('code_patch', ATTACK),
    ladderMessage('[a', '](command:b)'),
    decidedMessage(ATTACK, { answer: 'approve', by: 'you' }),
    decidedMessage(ATTACK, undefined),
    workspaceChangedMessage([ATTACK, 'b.js']),
    doneMessage(ATTACK, 'r1', undefined, []),
    pausedMessage('r1', [{ kind: 'approval', tool: ATTACK }]),
    progressText(1, 0, ATTACK),
    errorView(new ModelError(`server said: ${ATTACK}`), 'r1').message,
  ];
  for (const t of texts) assert.deepEqual(links(t), [], t);
});

test("a shared store's question names the call without a link", () => {
  const listing = {
    runId: 'r1',
    file: 'x',
    locked: false,
    state: {
      runId: 'r1',
      task: 't',
      phase: 'paused',
      pending: [{ kind: 'approval', callId: 'c1', tool: 'issue_file', args: JSON.stringify({ title: ATTACK, body: 'b' }) }],
    },
  } as unknown as RunListing;
  const [q] = storeQuestions([listing], () => false);
  assert.ok(q);
  assert.deepEqual(links(q.message), [], q.message);
});

test("the extension's own link stays a link", () => {
  assert.deepEqual(links(`${progressText(1, 0)} · ${openRunLink('r-1')}`), ['command:durableTriage.openRun?%5B%22r-1%22%5D']);
});
