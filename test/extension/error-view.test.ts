import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BadInputError,
  BudgetExceededError,
  CancelledError,
  CorruptCheckpointError,
  LockedError,
  MaxResumesError,
  McpServerError,
  McpToolsChangedError,
  ModelError,
  RecordingDivergedError,
  WorkspaceChangedError,
} from '../../src/core/errors';
import { errorView } from '../../src/extension/logic/error-view';

const SHA = 'b'.repeat(64);

test('a locked run: the warning of the contract, naming the run', () => {
  const v = errorView(new LockedError('r1', '/s/runs/r1.json.lock', 'pid 5'));
  assert.deepEqual(v, { severity: 'warning', message: 'Durable Triage: run r1 is open in another window; it will not be run here.', actions: [], runId: 'r1' });
});

test('a changed workspace: the error of the contract with its four ways on', () => {
  const v = errorView(
    new WorkspaceChangedError('r1', [
      { path: 'src/a.js', expected: SHA, actual: null },
      { path: 'b.js', expected: SHA, actual: SHA },
    ]),
  );
  assert.equal(v.severity, 'error');
  assert.match(v.message, /^Durable Triage: files the agent wrote have changed: src\/a\.js, b\.js\. Restore puts/);
  assert.deepEqual(v.actions, ['Show Diff', 'Restore', 'Keep My Edits', 'Abandon']);
});

test('cancelled, budget and restart limit: what to do next', () => {
  const c = errorView(new CancelledError('r1'));
  assert.equal(c.severity, 'info');
  assert.deepEqual(c.actions, ['Resume']);
  const b = errorView(new BudgetExceededError('r1', 'dollars', 1.2, 1));
  assert.equal(b.severity, 'warning');
  assert.deepEqual(b.actions, ['Open Settings', 'Resume']);
  assert.match(b.message, /^Durable Triage: Run r1 stopped before its next model call: its dollars budget/);
  const m = errorView(new MaxResumesError('r1', 11, 10));
  assert.equal(m.severity, 'error');
  assert.deepEqual(m.actions, ['Open Settings', 'Open Checkpoint']);
});

test('errors that name no run offer no run buttons unless the caller knows the run', () => {
  assert.deepEqual(errorView(new ModelError('429 forever')).actions, ['Show Log']);
  assert.deepEqual(errorView(new ModelError('429 forever'), 'r2').actions, ['Show Log', 'Resume']);
  assert.equal(errorView(new ModelError('x'), 'r2').runId, 'r2');
});

test('a missing API key offers Set API Key; other bad input just says what is wrong', () => {
  assert.deepEqual(errorView(new BadInputError('No Anthropic API key: set ANTHROPIC_API_KEY, or run "Durable Triage: Set API Key" in the editor.')).actions, [
    'Set API Key',
  ]);
  const v = errorView(new BadInputError('Unknown task "x".'));
  assert.deepEqual(v.actions, []);
  assert.equal(v.message, 'Durable Triage: Unknown task "x".');
});

test('corrupt checkpoints, a diverged recording and unexpected errors are errors with the log', () => {
  assert.match(errorView(new CorruptCheckpointError('/s/runs/r.json', 'truncated')).message, /Checkpoint \/s\/runs\/r\.json is corrupt/);
  assert.match(errorView(new RecordingDivergedError('diverged at turn 7')).message, /use a real model/);
  const u = errorView(new TypeError('boom'), 'r3');
  assert.equal(u.severity, 'error');
  assert.match(u.message, /unexpected error: boom/);
  assert.deepEqual(u.actions, ['Show Log']);
});

test('an MCP server whose tools changed since the run started: what changed, where to put it back, and the ways on in the editor (no CLI flag)', () => {
  const v = errorView(new McpToolsChangedError('r1', 'memory', ['create_entities takes other arguments']));
  assert.equal(v.severity, 'error');
  assert.equal(v.runId, 'r1');
  assert.match(v.message, /run r1 was started with other tools of MCP server "memory": create_entities takes other arguments/);
  assert.match(v.message, /durableTriage\.mcp\.servers/);
  assert.match(v.message, /\.vscode\/mcp\.json/);
  assert.doesNotMatch(v.message, /--new/);
  assert.deepEqual(v.actions, ['Open Settings', 'Resume', 'Show Log']);
});

test("an MCP server that will not start: the message points at the editor's setting, not the CLI's --mcp file, with Resume and the settings", () => {
  const v = errorView(new McpServerError('memory', 'start', "will not start: npx -y nope (exit 1). Check the server's entry in the --mcp file."), 'r1');
  assert.equal(v.severity, 'error');
  assert.match(
    v.message,
    /MCP server "memory" will not start: npx -y nope \(exit 1\)\. Check the server's entry in durableTriage\.mcp\.servers \(or the workspace's \.vscode\/mcp\.json\)\./,
  );
  assert.doesNotMatch(v.message, /--mcp/);
  assert.deepEqual(v.actions, ['Resume', 'Open Settings', 'Show Log']);
  const named = errorView(new BadInputError('Two MCP tools would both be called a__b; rename one of the servers in the --mcp file.'));
  assert.match(named.message, /rename one of the servers in durableTriage\.mcp\.servers/);
});
