'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseVersion, compareVersions, maxVersion } = require('../src/semver');

test('parseVersion reads MAJOR.MINOR.PATCH with an optional v', () => {
  assert.deepEqual(parseVersion('v1.4.10'), { major: 1, minor: 4, patch: 10 });
});

test('compareVersions orders numerically', () => {
  assert.ok(compareVersions('1.10.0', '1.9.3') > 0);
  assert.equal(compareVersions('2.0.0', '2.0.0'), 0);
});

test('maxVersion picks the highest', () => {
  assert.equal(maxVersion(['1.2.3', '1.10.0', '1.9.9']), '1.10.0');
});
