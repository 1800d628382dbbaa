import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatIntent, questionButtons, questionNode, openRunButton, resultMarkdown } from '../../src/extension/logic/chat';

const ROOT = path.resolve(__dirname, '..', '..', '..');

test('chatIntent: slash commands, the same words without the slash, else help', () => {
  assert.deepEqual(chatIntent('start', 'cart-unknown-coupon'), { kind: 'start', task: 'cart-unknown-coupon' });
  assert.deepEqual(chatIntent('start', ''), { kind: 'start' });
  assert.deepEqual(chatIntent(undefined, 'resume r-1'), { kind: 'resume', runId: 'r-1' });
  assert.deepEqual(chatIntent(undefined, '  Status  '), { kind: 'status' });
  assert.deepEqual(chatIntent('status', 'r2'), { kind: 'status', runId: 'r2' });
  assert.deepEqual(chatIntent(undefined, 'what can you do?'), { kind: 'help' });
});

test("an approval's buttons run the Runs view's Approve and Deny on the question's node (first answer wins there)", () => {
  const q = { runId: 'r1', callId: 'c1', tool: 'issue_file', kind: 'approval' as const, title: 'File issue: X' };
  const [approve, deny] = questionButtons(q);
  assert.equal(approve.command, 'durableTriage.approve');
  assert.equal(deny.command, 'durableTriage.deny');
  assert.deepEqual(approve.arguments, [questionNode(q)]);
  const node = questionNode(q) as { type: string; row: { kind: string; question: string; runId: string; callId: string } };
  assert.equal(node.type, 'child');
  assert.deepEqual([node.row.kind, node.row.question, node.row.runId, node.row.callId], ['question', 'approval', 'r1', 'c1']);
  const [ladder] = questionButtons({ ...q, kind: 'ladder' });
  assert.equal(ladder.command, 'durableTriage.showQuestion');
  // every command a button runs is one the extension registers
  const commands = fs.readFileSync(path.join(ROOT, 'src', 'extension', 'commands.ts'), 'utf8');
  for (const b of [approve, deny, ladder, openRunButton('r1')]) assert.ok(commands.includes(`register('${b.command}'`), b.command);
});

test('resultMarkdown: the issues with their links where the tracker has pages', () => {
  const md = resultMarkdown(
    { runId: 'r1', phase: 'done', turns: 9, dollars: 0.1 },
    [
      { number: 3, title: 'A', url: 'https://github.com/o/r/issues/3' },
      { number: 4, title: 'B' },
    ],
    'All fixed.',
  );
  assert.match(md, /Run `r1`: done after 9 turns, \$0\.1000/);
  assert.match(md, /- \[#3\]\(https:\/\/github\.com\/o\/r\/issues\/3\) A/);
  assert.match(md, /- #4 B/);
  assert.match(md, /All fixed\./);
  assert.match(resultMarkdown({ runId: 'r2', phase: 'paused', turns: 1, dollars: 0 }, []), /No issues filed/);
});
