import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadInputError } from '../../src/core/errors';
import { MCP_SETTING_LABEL, mcpConfigOf } from '../../src/extension/logic/mcp-servers';

const vars = { env: { TOKEN: 's3cret', MEMORY_FILE: '/data/memory.json' }, userHome: '/home/u', workspaceFolder: '/w/repo' };
const setting = (servers: Record<string, unknown>) => ({ label: MCP_SETTING_LABEL, servers });

test('the setting in the mcp.json "servers" shape becomes the run configuration: stdio by default, http by url, own fields kept', () => {
  const c = mcpConfigOf(
    [
      setting({
        memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], readOnly: ['read_graph'] },
        remote: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
      }),
    ],
    vars,
  );
  assert.equal(c.file, MCP_SETTING_LABEL);
  assert.deepEqual(c.servers.memory, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], readOnly: ['read_graph'] });
  assert.deepEqual(c.servers.remote, { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer s3cret' } });
});

test("VS Code's variables are filled in everywhere in an entry: ${workspaceFolder}, ${userHome}, ${env:NAME} (also in args and cwd)", () => {
  const c = mcpConfigOf(
    [
      setting({
        m: {
          command: '${userHome}/bin/server',
          args: ['--root', '${workspaceFolder}/data', '--file=${env:MEMORY_FILE}'],
          cwd: '${workspaceFolder}',
          env: { MEMORY_FILE_PATH: '${env:MEMORY_FILE}' },
        },
      }),
    ],
    vars,
  );
  assert.deepEqual(c.servers.m, {
    command: '/home/u/bin/server',
    args: ['--root', '/w/repo/data', '--file=/data/memory.json'],
    cwd: '/w/repo',
    env: { MEMORY_FILE_PATH: '/data/memory.json' },
  });
});

test("a lookup template is left as written (its {key} and {path} are the run's, not VS Code variables)", () => {
  const lookup = { create_entities: { tool: 'search_nodes', args: { query: '{entities.0.name}' }, found: { contains: '${not-a-variable}' } } };
  const c = mcpConfigOf([setting({ m: { command: 'x', lookup } })], vars);
  assert.deepEqual((c.servers.m as { lookup?: unknown }).lookup, lookup);
});

test('${input:ID} is refused naming the variable, the setting and the server, wherever it is (args too); nothing is started', () => {
  for (const entry of [
    { command: 'x', args: ['--key', '${input:api-key}'] },
    { command: 'x', env: { K: '${input:api-key}' } },
  ]) {
    assert.throws(
      () => mcpConfigOf([setting({ tracker: entry })], vars),
      (e: unknown) =>
        e instanceof BadInputError &&
        e.message.includes('${input:api-key}') &&
        e.message.includes(MCP_SETTING_LABEL) &&
        e.message.includes('server "tracker"') &&
        e.message.includes('${env:NAME}'),
    );
  }
});

test('an unset ${env:NAME}, an unknown variable and ${workspaceFolder} with no folder are refused, each named', () => {
  assert.throws(() => mcpConfigOf([setting({ m: { command: 'x', args: ['${env:NOPE}'] } })], vars), /\$\{env:NOPE\}, which is not set/);
  assert.throws(() => mcpConfigOf([setting({ m: { command: '${pathSeparator}x' } })], vars), /\$\{pathSeparator\}, which Durable Triage does not fill in/);
  assert.throws(
    () => mcpConfigOf([setting({ m: { command: 'x', cwd: '${workspaceFolder}' } })], { env: {}, userHome: '/home/u' }),
    /\$\{workspaceFolder\}, but no folder is open/,
  );
});

test('a bad entry is refused naming the setting and the server', () => {
  assert.throws(
    () => mcpConfigOf([setting({ m: { type: 'sse', url: 'https://x' } })], vars),
    (e: unknown) => e instanceof BadInputError && e.message.includes(MCP_SETTING_LABEL) && /server "m" has type "sse"/.test(e.message),
  );
  assert.throws(
    () => mcpConfigOf([setting({ m: { args: [] } })], vars),
    (e: unknown) => e instanceof BadInputError && e.message.includes(MCP_SETTING_LABEL),
  );
});

test('the setting and an allowed workspace file join; one name in both is refused naming both places', () => {
  const file = { label: '/w/repo/.vscode/mcp.json', servers: { fs: { command: 'fs-server' } } };
  const c = mcpConfigOf([setting({ memory: { command: 'm' } }), file], vars);
  assert.deepEqual(Object.keys(c.servers).sort(), ['fs', 'memory']);
  assert.equal(c.file, `${MCP_SETTING_LABEL} and /w/repo/.vscode/mcp.json`);
  assert.throws(
    () => mcpConfigOf([setting({ fs: { command: 'other' } }), file], vars),
    (e: unknown) =>
      e instanceof BadInputError && e.message.includes(MCP_SETTING_LABEL) && e.message.includes('/w/repo/.vscode/mcp.json') && /"fs"/.test(e.message),
  );
});

test('no server anywhere: no servers, named by the setting (a resumed run that used one says it is missing there)', () => {
  assert.deepEqual(mcpConfigOf([setting({}), { label: '/w/.vscode/mcp.json', servers: {} }], vars), { file: MCP_SETTING_LABEL, servers: {} });
});
