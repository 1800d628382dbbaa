// package.json's Language Model Tools, chat participant and MCP server definition provider,
// checked against the operations they contribute (triage/agent-tools.ts) and the code that registers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { AGENT_TOOLS, AGENT_TOOL_ARGS } from '../../src/triage/agent-tools';
import { CHAT_COMMANDS } from '../../src/extension/logic/chat';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const m = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  contributes: {
    languageModelTools: { name: string; toolReferenceName: string; displayName: string; modelDescription: string; inputSchema: unknown }[];
    chatParticipants: { id: string; name: string; commands: { name: string }[] }[];
    mcpServerDefinitionProviders: { id: string; label: string }[];
  };
};
const surfaces = fs.readFileSync(path.join(ROOT, 'src', 'extension', 'agent-surfaces.ts'), 'utf8');

test('one Language Model Tool per operation, described as the MCP tool is, with its arguments as JSON Schema', () => {
  const tools = m.contributes.languageModelTools;
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(AGENT_TOOLS).sort());
  for (const t of tools) {
    const name = t.name as keyof typeof AGENT_TOOLS;
    assert.equal(t.displayName, AGENT_TOOLS[name].title);
    assert.equal(t.modelDescription, AGENT_TOOLS[name].description);
    const schema = z.toJSONSchema(AGENT_TOOL_ARGS[name]) as Record<string, unknown>;
    delete schema.$schema;
    assert.deepEqual(t.inputSchema, schema, `${t.name}'s inputSchema is the zod schema the code checks with`);
    assert.match(t.toolReferenceName, /^[a-zA-Z]+$/);
  }
});

test('@triage is contributed with the commands the handler reads, under the id the code creates it with', () => {
  const [p] = m.contributes.chatParticipants;
  assert.equal(p.name, 'triage');
  assert.deepEqual(
    p.commands.map((c) => c.name),
    [...CHAT_COMMANDS],
  );
  assert.ok(surfaces.includes(`createChatParticipant('${p.id}'`), 'registered under the contributed id');
});

test('the MCP server definition provider is contributed under the id the code registers, and the engine is not raised for it', () => {
  const [d] = m.contributes.mcpServerDefinitionProviders;
  assert.ok(surfaces.includes(`registerMcpServerDefinitionProvider('${d.id}'`));
  // registerMcpServerDefinitionProvider is VS Code 1.101: feature-detected at run time, the engine stays 1.100.
  assert.equal(m.engines.vscode, '^1.100.0');
});
