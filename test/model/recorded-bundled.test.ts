/**
 * The bundled recordings agree with the catalog (same system prompt and task prompt, so
 * editing a prompt without re-authoring fails here, not in a user's demo), and look like
 * a real model's: unique tool-use IDs, priced tokens that grow with the conversation,
 * latencies of a few seconds, and a final answer without calls.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tasks } from '../../src/triage/tasks/catalog';
import { loadRecording } from '../../src/model/recorded-provider';
import { PriceTable } from '../../src/model/prices';

const TOOLS = new Set(['list_files', 'read_file', 'search_files', 'run_tests', 'write_file', 'code_patch', 'issue_file', 'issue_lookup']);

for (const task of tasks()) {
  test(`${task.name}: the recording matches the catalog and looks like a real run`, async () => {
    const rec = await loadRecording(task.recording);
    assert.equal(rec.task, task.name);
    assert.equal(rec.system, task.system, 'the system prompt changed since the recording was authored: re-author it');
    assert.equal(rec.prompt, task.prompt, 'the task prompt changed since the recording was authored: re-author it');
    assert.ok(new PriceTable().find(rec.model), `${rec.model} is priced`);

    const ids = rec.turns.flatMap((t) => t.reply.calls.map((c) => c.id));
    assert.equal(new Set(ids).size, ids.length, 'tool-use IDs are unique');
    for (const id of ids) assert.match(id, /^toolu_01[0-9A-Za-z]{22}$/);
    for (const t of rec.turns)
      for (const c of t.reply.calls) {
        assert.ok(TOOLS.has(c.name), `unknown tool ${c.name}`);
        assert.doesNotThrow(() => JSON.parse(c.args));
      }

    let prev = 0;
    rec.turns.forEach((t, i) => {
      assert.ok(t.reply.usage.inputTokens > prev, `turn ${i}: input grows with the conversation`);
      prev = t.reply.usage.inputTokens;
      assert.ok(t.reply.usage.outputTokens > 0);
      assert.ok(t.latencyMs !== undefined && t.latencyMs >= 1500 && t.latencyMs <= 4000, `turn ${i}: latency ${t.latencyMs}`);
      const expectedPrev = i === 0 ? [] : rec.turns[i - 1].reply.calls.map((c) => c.id);
      assert.deepEqual(t.expect.toolResults, expectedPrev, `turn ${i}: expects the previous reply's results`);
    });
    const last = rec.turns[rec.turns.length - 1];
    assert.deepEqual(last.reply.calls, []);
    assert.ok(last.reply.text && /#1\b/.test(last.reply.text));
    const filings = rec.turns.flatMap((t) => t.reply.calls.filter((c) => c.name === 'issue_file').map((c) => JSON.parse(c.args).cause as string));
    assert.deepEqual(filings.sort(), task.groups.map((g) => g.cause).sort(), 'one filing per crash group');
  });
}
