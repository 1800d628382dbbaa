import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasMcpDefinitionApi, registrationsLine } from '../../src/extension/logic/agent-registrations';

const TOOLS = ['triage_start', 'triage_status', 'triage_transcript', 'triage_answer', 'triage_file_issue'];

test('registrationsLine: what was registered, what the editor lists, and what this editor lacks, with its version', () => {
  assert.equal(
    registrationsLine({ tools: TOOLS, listed: TOOLS, chatParticipant: 'triage', mcpDefinition: false, editorVersion: '1.100.3' }),
    'registered 5 Language Model Tools: triage_start, triage_status, triage_transcript, triage_answer, triage_file_issue; ' +
      'listed by the editor (vscode.lm.tools): triage_start, triage_status, triage_transcript, triage_answer, triage_file_issue; ' +
      '@triage chat participant; MCP server definition: not available (VS Code 1.100.3)',
  );
  assert.equal(
    registrationsLine({ tools: TOOLS, chatParticipant: 'triage', mcpDefinition: true, editorVersion: '1.101.0' }),
    'registered 5 Language Model Tools: triage_start, triage_status, triage_transcript, triage_answer, triage_file_issue; ' +
      '@triage chat participant; MCP server definition: registered',
  );
});

test('registrationsLine: tools the editor does not list are named; an editor without the APIs says so', () => {
  assert.match(
    registrationsLine({ tools: TOOLS.slice(0, 2), listed: ['triage_status'], chatParticipant: 'triage', mcpDefinition: false, editorVersion: '1.100.3' }),
    /^registered 2 Language Model Tools: triage_start, triage_status; listed by the editor \(vscode\.lm\.tools\): triage_status; not listed: triage_start; /,
  );
  assert.equal(
    registrationsLine({ tools: undefined, chatParticipant: undefined, mcpDefinition: false, editorVersion: '1.80.0' }),
    'Language Model Tools: not available (VS Code 1.80.0); chat participant: not available (VS Code 1.80.0); MCP server definition: not available (VS Code 1.80.0)',
  );
  assert.match(
    registrationsLine({ tools: [], listed: [], chatParticipant: undefined, mcpDefinition: false, editorVersion: '1.1' }),
    /^registered 0 Language Model Tools: \(none\); listed by the editor \(vscode\.lm\.tools\): \(none\);/,
  );
});

test('registrationsLine: a definition the editor refused says why', () => {
  assert.match(
    registrationsLine({ tools: TOOLS, chatParticipant: 'triage', mcpDefinition: { failed: 'not contributed' }, editorVersion: '1.101.0' }),
    /; MCP server definition: failed to register \(not contributed\)$/,
  );
});

test('hasMcpDefinitionApi: VS Code 1.101 and later only (1.100 has a proposal of the same name that throws)', () => {
  assert.equal(hasMcpDefinitionApi('1.100.3'), false);
  assert.equal(hasMcpDefinitionApi('1.99.0'), false);
  assert.equal(hasMcpDefinitionApi('1.101.0'), true);
  assert.equal(hasMcpDefinitionApi('1.105.1-insider'), true);
  assert.equal(hasMcpDefinitionApi('2.0.0'), true);
  assert.equal(hasMcpDefinitionApi('unknown'), false);
});
