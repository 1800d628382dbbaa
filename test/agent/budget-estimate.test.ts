import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import { BudgetExceededError } from '../../src/core/errors';
import { newState } from '../../src/store/state';
import { createProvider } from '../../src/model/factory';
import { PriceTable } from '../../src/model/prices';
import { reply, ScriptModel, Person, tmp } from './support';
import { startServer } from '../model/support/fake-server';
import { anthropicFrames } from '../model/support/wire';
import { tempDir } from '../support/temp-dir';
import { openStore } from '../../src/store/open-store';

test('a budget stops the run before the call whose own estimate would exceed it', async (t) => {
  const dir = tempDir(t);
  const model = new ScriptModel([reply(0, [], 'done')]);
  Object.defineProperty(model, 'model', { value: 'claude-sonnet-4-5' });
  const parts = (): RunParts => ({ model, tools: toolSet([]), approver: new Person() });
  // About 250k input tokens at $3 per million: $0.75 for this one request.
  const big = (runId: string) =>
    newState({
      runId,
      task: 't',
      config: { workspace: dir, provider: 'scripted', model: 'claude-sonnet-4-5', keys: true },
      system: 'x'.repeat(1_000_000),
      prompt: 'go',
    });
  await assert.rejects(
    startRun({ runStore: openStore(dir), state: big('a'), parts, limits: { maxDollars: 0.5 } }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars',
  );
  assert.equal(model.total, 0, 'the call was not made');
  await assert.rejects(
    startRun({ runStore: openStore(dir), state: big('b'), parts, limits: { maxTokens: 200_000 } }),
    (e: unknown) => e instanceof BudgetExceededError && e.budget === 'tokens',
  );
  const ok = await startRun({ runStore: openStore(dir), state: big('c'), parts, limits: { maxDollars: 1 } });
  assert.equal(ok.phase, 'done');
});

test("the pre-call estimate uses the provider's configured prices: a dearer table stops a call the default one lets through", async () => {
  const dir = tmp();
  const server = await startServer([{ kind: 'sse', frames: anthropicFrames([{ text: ['done'] }]) }]);
  try {
    // About 10k input tokens: $0.01 at claude-haiku-4-5's default $1 per million, $3 at the configured $300.
    const state = (runId: string) =>
      newState({
        runId,
        task: 't',
        config: { workspace: dir, provider: 'anthropic', model: 'claude-haiku-4-5', keys: true },
        system: 'x'.repeat(40_000),
        prompt: 'go',
      });
    const run = (runId: string, prices?: PriceTable) => {
      const model = createProvider(
        { provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'sk-test', baseUrl: server.url, ...(prices ? { prices } : {}) },
        {},
      );
      return startRun({
        runStore: openStore(dir),
        state: state(runId),
        parts: () => ({ model, tools: toolSet([]), approver: new Person() }),
        limits: { maxDollars: 1 },
      });
    };
    const dear = new PriceTable({ 'claude-haiku-4-5': { input: 300, output: 1500 } });
    await assert.rejects(run('dear', dear), (e: unknown) => e instanceof BudgetExceededError && e.budget === 'dollars');
    assert.equal(server.requests.length, 0, 'the call was not made');
    const cheap = await run('cheap');
    assert.equal(cheap.phase, 'done');
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
