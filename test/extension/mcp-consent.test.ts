import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadInputError } from '../../src/core/errors';
import { MCP_CONSENT_BUTTONS, mcpConsentKey, mcpConsentQuestion, parseWorkspaceMcpFile, workspaceMcpDecision } from '../../src/extension/logic/mcp-consent';
import { stripJsonComments } from '../../src/extension/logic/jsonc';

const FILE = '/w/repo/.vscode/mcp.json';
const TEXT = `{
  // the team's servers
  "servers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": { "MEMORY_FILE_PATH": "/tmp/m.json" }, },
    /* remote */ "tracker": { "type": "http", "url": "https://mcp.example/mcp" },
  },
  "inputs": [],
}`;

test('the workspace file is read as VS Code reads it: comments and trailing commas allowed; strings untouched', () => {
  const f = parseWorkspaceMcpFile(FILE, TEXT);
  assert.deepEqual(Object.keys(f.servers), ['memory', 'tracker']);
  assert.match(f.hash, /^[0-9a-f]{64}$/);
  assert.deepEqual(JSON.parse(stripJsonComments('{"a": "// not a comment, /* nor this */", "b": [1,2,],}')), {
    a: '// not a comment, /* nor this */',
    b: [1, 2],
  });
  assert.deepEqual(JSON.parse(stripJsonComments('{"a": "x\\"y,}" , }')), { a: 'x"y,}' });
});

test('a workspace file that is not JSON, or has no servers object, is refused naming the file', () => {
  assert.throws(
    () => parseWorkspaceMcpFile(FILE, '{ "servers": '),
    (e: unknown) => e instanceof BadInputError && e.message.includes(FILE),
  );
  assert.throws(
    () => parseWorkspaceMcpFile(FILE, '{ "servers": [] }'),
    (e: unknown) => e instanceof BadInputError && e.message.includes(FILE),
  );
  assert.deepEqual(parseWorkspaceMcpFile(FILE, '{}').servers, {});
});

test('consent is kept per workspace and file content: another workspace or a changed file is asked about again', () => {
  const f = parseWorkspaceMcpFile(FILE, TEXT);
  const changed = parseWorkspaceMcpFile(FILE, TEXT.replace('server-memory', 'server-evil'));
  assert.notEqual(f.hash, changed.hash);
  const k = mcpConsentKey('file:///w/repo', f.hash);
  assert.equal(k, mcpConsentKey('file:///w/repo', f.hash));
  assert.notEqual(k, mcpConsentKey('file:///w/repo', changed.hash));
  assert.notEqual(k, mcpConsentKey('file:///w/other', f.hash));
  assert.ok(k.startsWith('durableTriage.'));
});

test('the decision: ask when not answered, use when allowed, leave out when refused; a file with no server asks nothing', () => {
  const f = parseWorkspaceMcpFile(FILE, TEXT);
  assert.equal(workspaceMcpDecision(f, undefined), 'ask');
  assert.equal(workspaceMcpDecision(f, 'allowed'), 'use');
  assert.equal(workspaceMcpDecision(f, 'refused'), 'skip');
  assert.equal(workspaceMcpDecision(f, true), 'ask', 'only the exact answer counts');
  assert.equal(workspaceMcpDecision(parseWorkspaceMcpFile(FILE, '{"servers": {}}'), undefined), 'skip');
  assert.equal(workspaceMcpDecision(undefined, undefined), 'skip');
});

test('the question names each server with the command it would run (or the address) and the variables it gets', () => {
  const q = mcpConsentQuestion(parseWorkspaceMcpFile(FILE, TEXT));
  assert.match(q.message, /\.vscode\/mcp\.json configures 2 MCP servers/);
  assert.match(q.detail, /• memory: runs npx -y @modelcontextprotocol\/server-memory \(environment: MEMORY_FILE_PATH\)/);
  assert.match(q.detail, /• tracker: connects to https:\/\/mcp\.example\/mcp/);
  assert.ok(q.detail.includes('/tmp/m.json') === false, 'variable values are not shown');
  assert.ok(q.detail.includes(MCP_CONSENT_BUTTONS.refuse));
  const one = mcpConsentQuestion(parseWorkspaceMcpFile(FILE, '{"servers": {"x": {"command": "my server", "args": ["a b"]}}}'));
  assert.match(one.message, /configures an MCP server/);
  assert.match(one.detail, /• x: runs "my server" "a b"/);
});
