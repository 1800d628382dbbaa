'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseIni } = require('../src/ini');

test('sections, keys and comments', () => {
  const text = '; settings\n[server]\nhost = example.org\nport=8080\n\n# tls\n[server.tls]\ncert = a.pem\n';
  assert.deepEqual(parseIni(text), { server: { host: 'example.org', port: '8080', tls: { cert: 'a.pem' } } });
});

test('a line without = is a syntax error', () => {
  assert.throws(() => parseIni('[a]\nnonsense'), SyntaxError);
});
