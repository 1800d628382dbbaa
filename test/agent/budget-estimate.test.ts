import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { BudgetExceededError } from '../../src/durable/errors';
import { newState } from '../../src/durable/state';
import { reply, ScriptModel, Person, tmp } from './support';

test('a budget stops the run before the call whose own estimate would exceed it', async () => {
  const dir = tmp();
  try {
    const model = new ScriptModel([reply(0, [], 'done')]);
    Object.defineProperty(model, 'model', { value: 'claude-sonnet-4-5' });
    const parts = (): RunParts => ({ model, tools: toolSet([]), approver: new Person() });
    // About 250k input tokens at $3 per million: $0.75 for this one request.
    const big = (runId: string) =>
      newState({ runId, task: 't', config: { workspace: dir, provider: 'scripted', model: 'claude-sonnet-4-5', keys: true }, system: 'x'.repeat(1_000_000), prompt: 'go' });
    await assert.rejects(startRun({ stateDir: dir, state: big('a'), parts, limits: { maxDollars: 0.5 } }), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars');
    assert.equal(model.total, 0, 'the call was not made');
    await assert.rejects(startRun({ stateDir: dir, state: big('b'), parts, limits: { maxTokens: 200_000 } }), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'tokens');
    const ok = await startRun({ stateDir: dir, state: big('c'), parts, limits: { maxDollars: 1 } });
    assert.equal(ok.phase, 'done');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
