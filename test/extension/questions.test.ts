import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QuestionRegistry, type QuestionInfo } from '../../src/extension/logic/questions';

type A = 'approve' | 'deny' | 'later';
const info = (runId: string, callId: string): QuestionInfo => ({ runId, callId, kind: 'approval', tool: 'issue_file', message: `approve ${callId}?` });

test('the first answer wins, from either place; later answers are ignored', async () => {
  const r = new QuestionRegistry<A>();
  const t = r.ask(info('r1', 'c1'));
  assert.equal(t.settled, false);
  assert.equal(r.answer('r1', 'c1', 'approve'), true); // e.g. the Runs view
  assert.equal(t.settle('deny'), false); // the notification's button, clicked after
  assert.equal(r.answer('r1', 'c1', 'deny'), false);
  assert.equal(await t.answer, 'approve');
  assert.equal(r.get('r1', 'c1'), undefined);
});

test('a question nobody answers stays open (a dismissed notification answers nothing)', async () => {
  const r = new QuestionRegistry<A>();
  const t = r.ask(info('r1', 'c1'));
  const race = await Promise.race([t.answer, new Promise((res) => setImmediate(() => res('still open')))]);
  assert.equal(race, 'still open');
  assert.deepEqual(
    r.list().map((q) => q.callId),
    ['c1'],
  );
  assert.equal(r.get('r1', 'c1'), t);
});

test('asking the same call twice returns the same open question', () => {
  const r = new QuestionRegistry<A>();
  assert.equal(r.ask(info('r1', 'c1')), r.ask(info('r1', 'c1')));
  assert.notEqual(r.ask(info('r1', 'c1')), r.ask(info('r2', 'c1')));
  assert.equal(r.list('r2').length, 1);
});

test('a pre-answer answers the question as soon as the resumed run asks it', async () => {
  const r = new QuestionRegistry<A>();
  r.preanswer('r1', 'c1', 'deny');
  assert.equal(r.hasPreanswer('r1', 'c1'), true);
  const t = r.ask(info('r1', 'c1'));
  assert.equal(t.settled, true);
  assert.equal(await t.answer, 'deny');
  assert.equal(r.hasPreanswer('r1', 'c1'), false);
  assert.deepEqual(r.list(), []);
});

test('a pre-answer for an open question answers it at once', async () => {
  const r = new QuestionRegistry<A>();
  const t = r.ask(info('r1', 'c1'));
  r.preanswer('r1', 'c1', 'approve');
  assert.equal(await t.answer, 'approve');
  assert.equal(r.hasPreanswer('r1', 'c1'), false);
});

test("closing a run answers its open questions and drops its pre-answers, not other runs'", async () => {
  const r = new QuestionRegistry<A>();
  const a = r.ask(info('r1', 'c1'));
  const b = r.ask(info('r2', 'c1'));
  r.preanswer('r1', 'c9', 'approve');
  r.preanswer('r2', 'c9', 'approve');
  r.closeRun('r1', 'later');
  assert.equal(await a.answer, 'later');
  assert.equal(b.settled, false);
  assert.equal(r.hasPreanswer('r1', 'c9'), false);
  assert.equal(r.hasPreanswer('r2', 'c9'), true);
});

test('listeners hear about opened and answered questions until disposed', () => {
  const r = new QuestionRegistry<A>();
  let n = 0;
  const sub = r.onDidChange(() => n++);
  r.ask(info('r1', 'c1'));
  r.answer('r1', 'c1', 'approve');
  assert.equal(n, 2);
  sub.dispose();
  r.ask(info('r1', 'c2'));
  assert.equal(n, 2);
});

test('a decision remembers who gave it, also after the question closed, for a stale notification', async () => {
  const r = new QuestionRegistry<A>();
  const t = r.ask(info('r1', 'c1'));
  assert.equal(r.answer('r1', 'c1', 'approve', 'you, in the Run panel'), true);
  assert.deepEqual(t.decision, { answer: 'approve', by: 'you, in the Run panel' });
  assert.equal(t.settle('deny', 'you, in the notification'), false, 'the stale button does not act');
  assert.deepEqual(r.decided('r1', 'c1'), { answer: 'approve', by: 'you, in the Run panel' });
  r.preanswer('r1', 'c2', 'deny', 'you, in the Runs view');
  const t2 = r.ask(info('r1', 'c2'));
  assert.deepEqual(t2.decision, { answer: 'deny', by: 'you, in the Runs view' });
  const t3 = r.ask(info('r1', 'c3'));
  r.closeRun('r1', 'later', 'the run stopped');
  assert.deepEqual(t3.decision, { answer: 'later', by: 'the run stopped' });
  assert.equal(r.decided('r9', 'c1'), undefined);
});
