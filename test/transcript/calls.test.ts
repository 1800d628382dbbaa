// How each tool's call and result render in the transcript (issue #19 item 6): pinned per tool, so
// moving the rendering into the tools changes nothing a person sees (the CLI's text, the Run panel's blocks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeCall, describeResult, filedIssue } from '../../src/transcript/calls';
import type { ToolCall } from '../../src/core/conversation';

const call = (name: string, args: unknown): ToolCall => ({ id: 'c1', name, args: typeof args === 'string' ? args : JSON.stringify(args) });
const title = (name: string, args: unknown): string => describeCall(call(name, args)).title;

test('each tool titles its call from its arguments', () => {
  assert.equal(title('code_patch', { path: 'src/a.js', patch: 'p' }), 'Patch src/a.js');
  assert.equal(title('code_patch', { patch: 'p' }), 'Patch ?');
  assert.equal(title('write_file', { path: 'b.txt', content: 'x' }), 'Write b.txt');
  assert.equal(title('read_file', { path: 'c.js' }), 'Read c.js');
  assert.equal(title('list_files', {}), 'List files');
  assert.equal(title('list_files', { path: 'src' }), 'List files in src');
  assert.equal(title('search_files', { query: 'parse(' }), 'Search for "parse("');
  assert.equal(title('search_files', { pattern: 'x', path: 'lib' }), 'Search for "x" in lib');
  assert.equal(title('run_tests', {}), 'Run the tests');
  assert.equal(title('run_tests', { files: ['a.test.js', 3, 'b.test.js'] }), 'Run tests: a.test.js, b.test.js');
  assert.equal(title('issue_file', { title: 'Crash in parse', body: 'b' }), 'File issue: Crash in parse');
  assert.equal(title('issue_lookup', { cause: 'null-deref' }), 'Look up issues (null-deref)');
  assert.equal(title('issue_lookup', { number: 4 }), 'Look up issues (#4)');
  assert.equal(title('issue_lookup', {}), 'Look up issues');
  assert.equal(title('mystery_tool', { a: 1 }), 'mystery_tool');
  assert.equal(title('code_patch', '{"path": "x'), 'code_patch (arguments are not valid JSON)');
});

test('each call shows its arguments as blocks, and names the path it acts on', () => {
  assert.deepEqual(describeCall(call('code_patch', { path: 'a.js', patch: '@@ -1 +1 @@\n-a\n+b' })), {
    title: 'Patch a.js',
    path: 'a.js',
    args: [{ kind: 'diff', path: 'a.js', text: '@@ -1 +1 @@\n-a\n+b' }],
  });
  assert.deepEqual(describeCall(call('write_file', { path: 'b.txt', content: 'hello' })), {
    title: 'Write b.txt',
    path: 'b.txt',
    args: [{ kind: 'code', text: 'hello', label: 'b.txt' }],
  });
  assert.deepEqual(describeCall(call('read_file', { path: 'c.js' })), { title: 'Read c.js', path: 'c.js', args: [] });
  assert.deepEqual(describeCall(call('search_files', { query: 'q', path: 'lib' })), { title: 'Search for "q" in lib', args: [] });
  assert.deepEqual(describeCall(call('issue_file', { title: 'T', body: 'B', cause: 'c' })), {
    title: 'File issue: T',
    args: [{ kind: 'issue', title: 'T', body: 'B', cause: 'c' }],
  });
  assert.deepEqual(describeCall(call('issue_file', { title: 'T', body: 'B' })).args, [{ kind: 'issue', title: 'T', body: 'B' }]);
  assert.deepEqual(describeCall(call('mystery_tool', { path: 'p', n: 1 })), {
    title: 'mystery_tool',
    path: 'p',
    args: [{ kind: 'code', text: '{\n  "path": "p",\n  "n": 1\n}', label: 'arguments' }],
  });
  assert.deepEqual(describeCall(call('issue_file', '[1]')), {
    title: 'issue_file (arguments are not valid JSON)',
    args: [{ kind: 'code', text: '[1]', label: 'arguments as the model wrote them' }],
  });
  const long = 'x'.repeat(20_005);
  assert.equal(
    (describeCall(call('write_file', { path: 'big', content: long })).args[0] as { text: string }).text,
    `${'x'.repeat(20_000)}\n… (5 more characters)`,
  );
});

test('a test run reads as passed and failed with its failures; a file tool shows its output; others a summary line', () => {
  const tests = 'tests: 3 passed, 1 failed\nrunner: node (package.json)\n\nFAILED: adds\n  expected 2\n  got 3';
  assert.deepEqual(describeResult(call('run_tests', {}), { callId: 'c1', content: tests }), {
    summary: '3 passed, 1 failed',
    isError: true,
    blocks: [{ kind: 'tests', passed: 3, failed: 1, failures: [{ name: 'adds', detail: 'expected 2\ngot 3' }] }],
    bytes: 88,
  });
  assert.deepEqual(describeResult(call('run_tests', {}), { callId: 'c1', content: 'tests: 2 passed, 0 failed' }).blocks, [
    { kind: 'tests', passed: 2, failed: 0, failures: [] },
  ]);
  assert.deepEqual(describeResult(call('run_tests', {}), { callId: 'c1', content: 'tests: 2 passed, 0 failed', isError: true }), {
    summary: 'tests: 2 passed, 0 failed',
    isError: true,
    blocks: [],
    bytes: 25,
  });
  assert.deepEqual(describeResult(call('read_file', { path: 'a' }), { callId: 'c1', content: 'one line' }), {
    summary: 'one line',
    isError: false,
    blocks: [{ kind: 'code', text: 'one line' }],
    bytes: 8,
  });
  assert.deepEqual(describeResult(call('list_files', {}), { callId: 'c1', content: '' }), { summary: '(no output)', isError: false, blocks: [], bytes: 0 });
  assert.deepEqual(describeResult(call('search_files', { query: 'q' }), { callId: 'c1', content: 'a:1: q' }).blocks, [{ kind: 'code', text: 'a:1: q' }]);
  assert.deepEqual(describeResult(call('write_file', { path: 'a' }), { callId: 'c1', content: 'wrote a (1 bytes)' }), {
    summary: 'wrote a (1 bytes)',
    isError: false,
    blocks: [],
    bytes: 17,
  });
  assert.deepEqual(describeResult(call('issue_lookup', { number: 1 }), { callId: 'c1', content: '#1 [c] T\n\nbody' }), {
    summary: '#1 [c] T',
    isError: false,
    blocks: [{ kind: 'code', text: '#1 [c] T\n\nbody' }],
    bytes: 14,
  });
  assert.deepEqual(describeResult(call('code_patch', { path: 'a' }), { callId: 'c1', content: 'code_patch: no', isError: true }), {
    summary: 'code_patch: no',
    isError: true,
    blocks: [],
    bytes: 14,
  });
});

test('a result carries the bytes it added to the conversation, counted in UTF-8', () => {
  assert.equal(describeResult(call('read_file', { path: 'a' }), { callId: 'c1', content: 'é\n€' }).bytes, 6);
  assert.equal(describeResult(call('mystery_tool', {}), { callId: 'c1', content: 'abc' }).bytes, 3);
});

test('a filing result names the issue filed', () => {
  assert.deepEqual(filedIssue({ name: 'issue_file' }, { callId: 'c1', content: 'filed issue #3: Crash' }), { number: 3, title: 'Crash' });
  assert.deepEqual(filedIssue({ name: 'issue_file' }, { callId: 'c1', content: 'filed issue #3: Crash\nurl: https://x/3' }), {
    number: 3,
    title: 'Crash',
    url: 'https://x/3',
  });
  assert.equal(filedIssue({ name: 'issue_file' }, { callId: 'c1', content: 'filed issue #3: Crash', isError: true }), undefined);
  assert.equal(filedIssue({ name: 'issue_file' }, { callId: 'c1', content: 'already filed as issue #3' }), undefined);
});
