import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalDetails, callTitle, fence, inline, ladderDetails, prettyArgs, storedApprovalDetails } from '../../src/extension/logic/details';

const base = {
  runId: 'r1',
  callId: 'toolu_01',
  tool: 'issue_file',
  args: '{"title":"Crash","body":"b"}',
  title: 'File issue: Crash',
  detail: 'body text\n\ncause: x',
};

test('a patch is shown as a diff of the file', () => {
  const v = approvalDetails({ ...base, tool: 'code_patch', diff: { path: 'src/a.js', before: 'old', after: 'new' } });
  assert.deepEqual(v, { kind: 'diff', path: 'src/a.js', before: 'old', after: 'new', title: 'code_patch: src/a.js (proposed change)' });
});

test("an issue is shown as a markdown document with its title, body and the model's arguments", () => {
  const v = approvalDetails(base);
  assert.equal(v.kind, 'document');
  if (v.kind !== 'document') return;
  assert.equal(v.name, 'File_issue_Crash.md', 'named after what it shows');
  assert.match(v.content, /^# File issue: Crash\n\n```\nbody text\n\ncause: x\n```\n/);
  assert.ok(v.content.includes('"title": "Crash"'), v.content);
});

test('arguments that are not JSON are shown as the model wrote them, and cannot break out of the code fence', () => {
  assert.equal(prettyArgs('{"a":'), '{"a":');
  const v = approvalDetails({ ...base, args: 'x ``` y' });
  assert.ok(v.kind === 'document' && v.content.includes('````json\nx ``` y\n````'));
});

test('the ladder details say why a person is asked', () => {
  const v = ladderDetails({ runId: 'r1', callId: 'c/9', tool: 'code_patch', args: '{"path":"src/a.js"}', reason: 'the lookup could not tell', startedAt: 'T' });
  assert.ok(v.kind === 'document');
  if (v.kind !== 'document') return;
  assert.equal(v.name, 'Did code_patch_src_a.js happen.md');
  assert.match(v.content, /the lookup could not tell/);
});

test('callTitle: the issue title, else the path, else nothing', () => {
  assert.equal(callTitle('{"title":" Crash on undo ","path":"x"}'), '"Crash on undo"');
  assert.equal(callTitle('{"path":"src/todos.js"}'), 'src/todos.js');
  assert.equal(callTitle('{"n":1}'), '');
  assert.equal(callTitle('not json'), '');
  assert.equal(callTitle('[1]'), '');
  assert.equal(callTitle(JSON.stringify({ title: 'x'.repeat(200) })).length, 82);
});

test("a shared store's approval (no live call to ask) is shown from its saved question: the issue's title, cause and body, then the model's arguments", () => {
  const args = JSON.stringify({ title: '"done N" crashes', cause: 'done-after-delete', body: 'Marking an item done\n\n```\nTypeError: x\n```' });
  const v = storedApprovalDetails({ runId: 'r9', callId: 'toolu_9', tool: 'issue_file', args });
  assert.equal(v.kind, 'document');
  if (v.kind !== 'document') return;
  assert.equal(v.name, 'File_issue_done_N_crashes.md');
  assert.match(
    v.content,
    /^# File issue: "done N" crashes\n\n\*\*Title:\*\* "done N" crashes\n\n\*\*Cause:\*\* done\\-after\\-delete\n\n````\nMarking an item done\n/,
  );
  assert.ok(v.content.includes('paused in the shared store for a worker'), v.content);
  // The arguments' fence is longer than any fence inside them.
  assert.ok(v.content.includes('````json\n{\n  "title"'), v.content);
});

test("a shared store's patch approval shows its diff; arguments that are not JSON are shown as written", () => {
  const v = storedApprovalDetails({
    runId: 'r9',
    callId: 'c2',
    tool: 'code_patch',
    args: JSON.stringify({ path: 'src/a.js', patch: '@@ -1 +1 @@\n-old\n+new' }),
  });
  assert.ok(v.kind === 'document' && v.content.includes('src/a\\.js:\n\n```diff\n@@ -1 +1 @@\n-old\n+new\n```'), JSON.stringify(v));
  const bad = storedApprovalDetails({ runId: 'r9', callId: 'c3', tool: 'issue_file', args: '{"title": "x", "body":' });
  assert.ok(
    bad.kind === 'document' && bad.content.startsWith('# issue\\_file \\(arguments are not valid JSON\\)') && bad.content.includes('{"title": "x", "body":'),
    JSON.stringify(bad),
  );
});

/**
 * The markdown outside the fenced blocks, as the preview parses it at block level: a fence opened
 * by N backticks is closed only by a line of N or more (CommonMark), everything else is markdown.
 */
function outsideFences(md: string): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of md.split('\n')) {
    const f = /^(`{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (f) open = f;
      else out.push(line);
    } else if (f && f.length >= open.length && line.trim() === f) open = undefined;
  }
  assert.equal(open, undefined, 'every fence is closed');
  return out;
}

const FAKE = [
  'Harmless looking body.',
  '',
  '---',
  '',
  "Tool `issue_file`, call `toolu_01` of run `r1`. The model's arguments:",
  '',
  '```json',
  '{ "title": "Typo in README" }',
  '```',
  '',
  '# Approve this',
  '<!--',
  'everything after this is hidden',
].join('\n');

test('Show Details cannot be faked: a fake arguments section and an unclosed <!-- in the body stay text, and the real arguments show', () => {
  const args = JSON.stringify({ title: 'Crash <!-- x', cause: 'c`ause', body: FAKE });
  for (const v of [
    approvalDetails({ ...base, args, title: 'File issue: Crash <!-- x', detail: `${FAKE}\n\ncause: c\`ause` }),
    storedApprovalDetails({ runId: 'r1', callId: 'toolu_01', tool: 'issue_file', args }),
  ]) {
    assert.equal(v.kind, 'document');
    if (v.kind !== 'document') return;
    const md = outsideFences(v.content);
    assert.ok(!md.some((l) => l.includes('<!--') && !l.includes('\\<!--')), `no HTML comment outside a fence:\n${md.join('\n')}`);
    assert.deepEqual(md.filter((l) => l.startsWith('#')).length, 1, `one heading, the extension's:\n${md.join('\n')}`);
    assert.equal(md.filter((l) => l.includes("The model's arguments:")).length, 1, 'one arguments section, the real one');
    // The real arguments follow the section, in the last fence, whole.
    assert.ok(v.content.trimEnd().endsWith(`${fence(prettyArgs(args), 'json')}`), v.content);
  }
});

test('a body holding ``` fences and a title holding markdown cannot close the fence or make a heading', () => {
  const body = 'a\n```\n# Fake heading\n````\n<!--';
  const v = storedApprovalDetails({ runId: 'r1', callId: 'c`1', tool: 'issue_file', args: JSON.stringify({ title: 'x\n# Heading [l](command:a) <b>', body }) });
  assert.ok(v.kind === 'document');
  if (v.kind !== 'document') return;
  const md = outsideFences(v.content);
  assert.deepEqual(
    md.filter((l) => l.startsWith('#')),
    ['# File issue: x \\# Heading \\[l\\]\\(command:a\\) \\<b\\>'],
  );
  assert.ok(v.content.includes('`````\na\n```\n# Fake heading\n````\n<!--\n`````'), v.content);
  assert.ok(
    md.some((l) => l.includes('call c\\`1 of run r1')),
    md.join('\n'),
  );
});

test('fence and inline', () => {
  assert.equal(fence('x ``` y ````` z', 'json'), '``````json\nx ``` y ````` z\n``````');
  assert.equal(inline('a\r\n<!-- *b* `c`'), 'a \\<\\!\\-\\- \\*b\\* \\`c\\`');
});
