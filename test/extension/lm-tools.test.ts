import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareTool, statusMarkdown } from '../../src/extension/logic/lm-tools';
import { AGENT_TOOLS, type AgentToolName } from '../../src/triage/agent-tools';
import type { RunInfo } from '../../src/triage/runinfo';

const INPUT: Record<AgentToolName, unknown> = {
  triage_start: { task: 'cart-unknown-coupon', tracker: 'github:o/r' },
  triage_status: {},
  triage_transcript: { run: 'r1' },
  triage_answer: { run: 'r1', call: 'c1', answer: 'approve' },
  triage_file_issue: { title: 'Crash on undo', body: 'b', cause: 'undo-empty' },
};

test('a confirmation for every tool that changes something, none for the read-only ones (as their hints say)', () => {
  for (const name of Object.keys(AGENT_TOOLS) as AgentToolName[]) {
    const p = prepareTool(name, INPUT[name]);
    assert.ok(p.invocationMessage.length > 0);
    assert.equal(p.confirmation === undefined, AGENT_TOOLS[name].annotations.readOnlyHint, name);
    // Input it cannot read still asks before anything changes.
    assert.equal(prepareTool(name, { nonsense: 1 }).confirmation === undefined, AGENT_TOOLS[name].annotations.readOnlyHint, name);
  }
});

test('the confirmations name what will happen', () => {
  assert.match(prepareTool('triage_start', INPUT.triage_start).confirmation!.message, /cart-unknown-coupon.*open folder.*github:o\/r/s);
  assert.match(prepareTool('triage_start', { run: 'r9' }).confirmation!.message, /Resume run r9/);
  assert.match(prepareTool('triage_answer', INPUT.triage_answer).confirmation!.message, /^Approve call c1 of run r1/);
  assert.match(prepareTool('triage_answer', { run: 'r1', call: 'c1', answer: 'deny' }).confirmation!.message, /^Deny/);
  assert.match(prepareTool('triage_file_issue', INPUT.triage_file_issue).confirmation!.message, /"Crash on undo" \(cause undo-empty\) in the embedded tracker/);
});

test('statusMarkdown: each run, what it does now, and its questions with their call IDs', () => {
  const run: RunInfo = {
    runId: 'r1',
    file: 'f',
    task: 't',
    phase: 'paused',
    turns: 3,
    restarts: 1,
    dollars: 0.5,
    locked: false,
    pending: [{ kind: 'approval', callId: 'c1', tool: 'issue_file', title: 'File issue: X' }],
    unresolved: [{ callId: 'c0', tool: 'write_file', startedAt: 'now', keyed: false }],
    files: [],
  };
  const md = statusMarkdown([run, { runId: 'bad', file: 'g', locked: false, pending: [], unresolved: [], files: [], error: 'corrupt' }], (id) =>
    id === 'r1' ? 'asking' : undefined,
  );
  assert.match(md, /`r1` t: paused, turn 3, \$0\.5000, restarts 1; now: asking/);
  assert.match(md, /approval for File issue: X \(call `c1`\)/);
  assert.match(md, /attempt marker: write_file \(call `c0`\)/);
  assert.match(md, /`bad`: unreadable \(corrupt\)/);
  assert.equal(statusMarkdown([]), 'No runs yet.');
});
