import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blobUriParts, missingUriParts, parseBlobQuery, parseStateUri, stateUriParts } from '../../src/extension/logic/blob-uri';

const SHA = 'c'.repeat(64);

test("the agent's version: path for the tab title, state dir and hash in the query, round trip", () => {
  const p = blobUriParts('/tmp/state dir&x', SHA, 'src/todos.js');
  assert.equal(p.path, '/src/todos.js');
  assert.deepEqual(parseBlobQuery(p.query), { kind: 'blob', stateDir: '/tmp/state dir&x', sha256: SHA });
});

test('a deleted file has an empty side; bad queries and hashes are refused', () => {
  assert.deepEqual(parseBlobQuery(missingUriParts('a.js').query), { kind: 'missing' });
  assert.equal(parseBlobQuery('state=/s&sha=xyz'), undefined);
  assert.equal(parseBlobQuery(''), undefined);
  assert.throws(() => blobUriParts('/s', 'nothex', 'a.js'), /SHA-256/);
});

test('a run state document round-trips its run ID and state dir', () => {
  const p = stateUriParts('/s', 'm1-20251202T101010Z-abc');
  assert.equal(p.path, '/m1-20251202T101010Z-abc.json');
  assert.deepEqual(parseStateUri(p.path, p.query), { stateDir: '/s', runId: 'm1-20251202T101010Z-abc' });
  assert.equal(parseStateUri('/x.txt', p.query), undefined);
});
