/** The --mcp file: VS Code's mcp.json shapes, checked field by field; ${env:} filled in, ${input:} refused. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMcpConfig } from '../../src/mcp/config';
import { BadInputError } from '../../src/core/errors';
import { fill } from '../../src/mcp/lookup';
import { modelName } from '../../src/mcp/names';

test('stdio (type optional, as VS Code allows) and http servers are read; ${env:NAME} is filled in', () => {
  const c = parseMcpConfig(
    {
      inputs: [],
      servers: {
        mem: { command: 'node', args: ['x.js'], env: { TOKEN: '${env:MY_TOKEN}' }, readOnly: ['read_graph'] },
        web: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${env:MY_TOKEN}' } },
      },
    },
    'mcp.json',
    { MY_TOKEN: 's3cret' },
  );
  assert.deepEqual(c.servers.mem, { command: 'node', args: ['x.js'], env: { TOKEN: 's3cret' }, readOnly: ['read_graph'] });
  assert.deepEqual(c.servers.web, { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer s3cret' } });
});

test('bad input names the file and the field', () => {
  const bad: [unknown, RegExp][] = [
    [{}, /mcp\.json is not valid: field "\$\.servers" should be an object, found nothing/],
    [{ servers: { a: { type: 'sse', url: 'https://x.test' } } }, /server "a" has type "sse"/],
    [{ servers: { a: { type: 'http', url: 'not a url' } } }, /field "\$\.servers\.a\.url"/],
    [{ servers: { a: { command: 'node', colour: 1 } } }, /\(server "a"\): no field "colour"/],
    [{ servers: { a: { command: 'node', lookup: { t: { tool: 'r', found: {} } } } } }, /\$\.servers\.a\.lookup\.t\.found/],
    [{ servers: { 'a b': { command: 'node' } } }, /server "a b": use 1 to 32 letters/],
    [{ servers: { a: { command: 'node', env: { X: '${input:tok}' } } } }, /\$\{input:tok\}, which only VS Code can ask for/],
    [{ servers: { a: { command: 'node', env: { X: '${env:UNSET_HERE}' } } } }, /\$\{env:UNSET_HERE\}, which is not set/],
  ];
  for (const [raw, msg] of bad)
    assert.throws(
      () => parseMcpConfig(raw, 'mcp.json', {}),
      (e: unknown) => e instanceof BadInputError && msg.test(e.message),
      JSON.stringify(raw),
    );
});

test('lookup templates take values from the call and the key; a missing one throws', () => {
  const args = { entities: [{ name: 'n1' }] };
  assert.deepEqual(fill({ names: ['{entities.0.name}'], q: 'key={key}' }, args, 'k1'), { names: ['n1'], q: 'key=k1' });
  assert.deepEqual(fill('{entities}', args, undefined), [{ name: 'n1' }]);
  assert.throws(() => fill('{nope}', args, 'k'), /no argument at "nope"/);
  assert.throws(() => fill('{key}', args, undefined), /without an idempotency key/);
});

test('model-safe names', () => {
  assert.equal(modelName('mem', 'create_entities'), 'mem__create_entities');
  assert.equal(modelName('fs', 'read.file/x'), 'fs__read_file_x');
  assert.equal(modelName('s', 'x'.repeat(80)), undefined);
});
