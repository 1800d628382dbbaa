import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { resumeModel } from '../../src/extension/logic/resume-model';
import { crashFolderRel } from '../../src/extension/logic/crash-folder';
import { BadInputError } from '../../src/core/errors';

test('a run resumes with the model it started with', () => {
  assert.deepEqual(resumeModel({ provider: 'recorded', model: 'claude-sonnet-4-5' }), { kind: 'recorded' });
  assert.deepEqual(resumeModel({ provider: 'vscode-lm', model: 'gpt-4o' }), { kind: 'vscode-lm', model: 'gpt-4o' });
  assert.deepEqual(resumeModel({ provider: 'openai', model: 'qwen', options: { baseUrl: 'http://127.0.0.1:1/v1' } }), {
    kind: 'keyed',
    provider: 'openai',
    model: 'qwen',
    baseUrl: 'http://127.0.0.1:1/v1',
  });
  assert.deepEqual(resumeModel({ provider: 'anthropic', model: 'claude-haiku-4-5' }), { kind: 'keyed', provider: 'anthropic', model: 'claude-haiku-4-5' });
  assert.deepEqual(resumeModel({ provider: 'mystery', model: 'm' }), { kind: 'unknown', provider: 'mystery' });
});

test('a saved base URL with a user name or password is refused before a key is asked for, without the secret', () => {
  assert.throws(
    () => resumeModel({ provider: 'openai', model: 'qwen', options: { baseUrl: 'http://alice:hunter2@127.0.0.1:1/v1' } }),
    (e: unknown) =>
      e instanceof BadInputError && /^The base URL saved with this run holds a user name or password/.test(e.message) && !/alice|hunter2/.test(e.message),
  );
});

test('a crash reports folder must be inside the workspace', () => {
  const ws = path.resolve('/work/ws');
  assert.equal(crashFolderRel(ws, path.join(ws, 'crashes', 'prod')), 'crashes/prod');
  assert.throws(
    () => crashFolderRel(ws, ws),
    (e: unknown) => e instanceof BadInputError && /the workspace itself/.test(e.message),
  );
  assert.throws(
    () => crashFolderRel(ws, path.resolve('/work/other')),
    (e: unknown) => e instanceof BadInputError && /outside it/.test(e.message),
  );
  assert.throws(() => crashFolderRel(ws, path.resolve('/work/ws-2/crashes')), BadInputError);
});
