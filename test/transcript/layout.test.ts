// The Run panel lays a call out from what the call carries (its tool's view), never from the tool's
// name (issue #19 item 6): one rendering per tool, in the tool's file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildTranscript } from '../../src/transcript/build';
import type { CallView } from '../../src/core/transcript';
import type { RunState } from '../../src/store/state';
import { TOOL_NAMES, triageTools } from '../../src/tools/index';
import { toolView } from '../../src/tools/views';
import type { Tracker } from '../../src/tracker/tracker';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const AT = '2025-01-01T00:00:00.000Z';

function callsOf(calls: { name: string; args: unknown }[]): CallView[] {
  const state = {
    version: 1,
    runId: 'r1',
    task: 't',
    createdAt: AT,
    updatedAt: AT,
    config: { workspace: '/w', provider: 'recorded', model: 'm', keys: true },
    phase: 'model',
    system: 's',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', calls: calls.map((c, i) => ({ id: `c${i}`, name: c.name, args: JSON.stringify(c.args) })) },
    ],
    usage: { inputTokens: 0, outputTokens: 0, dollars: 0 },
    turns: 1,
    restarts: 0,
  } as unknown as RunState;
  return buildTranscript(state).entries.flatMap((e) => (e.kind === 'call' ? [e.call] : []));
}

test("each call carries its tool's icon, whether it shows unfolded and whether it writes its path", () => {
  const views = callsOf([
    { name: 'code_patch', args: { path: 'a.js', patch: 'p' } },
    { name: 'write_file', args: { path: 'b.js', content: 'x' } },
    { name: 'read_file', args: { path: 'a.js' } },
    { name: 'list_files', args: {} },
    { name: 'search_files', args: { query: 'q' } },
    { name: 'run_tests', args: {} },
    { name: 'issue_file', args: { title: 'T', body: 'B', cause: 'c' } },
    { name: 'issue_lookup', args: { cause: 'c' } },
    { name: 'made_up', args: { path: 'a.js' } },
  ]);
  assert.deepEqual(
    views.map((v) => [v.tool, v.icon, v.unfolded, v.writesPath]),
    [
      ['code_patch', 'diff', true, true],
      ['write_file', 'new-file', undefined, true],
      ['read_file', 'file', undefined, undefined],
      ['list_files', 'list-tree', undefined, undefined],
      ['search_files', 'search', undefined, undefined],
      ['run_tests', 'beaker', undefined, undefined],
      ['issue_file', 'issues', true, undefined],
      ['issue_lookup', 'search', undefined, undefined],
      ['made_up', undefined, undefined, undefined],
    ],
  );
});

test('a call whose arguments are not JSON still lays out as its tool does', () => {
  const [v] = callsOf([{ name: 'code_patch', args: 'not an object' }]);
  assert.equal(v.icon, 'diff');
  assert.equal(v.unfolded, true);
});

test('every tool the triage job runs has a view, and its approval title is the view’s', () => {
  const tools = triageTools({ tracker: { honoursKeys: false } as unknown as Tracker, keys: false });
  assert.deepEqual(
    tools.map((t) => t.name),
    [...TOOL_NAMES],
  );
  for (const t of tools) assert.ok(toolView(t.name), `${t.name} has a view`);
  assert.equal(toolView('made_up'), undefined);
  const titles = tools.flatMap((t) =>
    t.describe
      ? [
          [
            t.describe({ path: 'a.js', patch: '@@ -1 +1 @@\n-a\n+b\n', content: 'x', title: 'T', body: 'B', cause: 'c' }).title,
            toolView(t.name)!.call({ path: 'a.js', title: 'T' }).title,
          ],
        ]
      : [],
  );
  assert.equal(titles.length, 6);
  for (const [asked, shown] of titles) assert.equal(asked, shown);
});

test('the Run panel script names no tool: it renders what each call carries', () => {
  const panel = fs.readFileSync(path.join(ROOT, 'src', 'webview', 'panel.ts'), 'utf8');
  for (const name of TOOL_NAMES) assert.ok(!panel.includes(name), `src/webview/panel.ts names ${name}`);
});
