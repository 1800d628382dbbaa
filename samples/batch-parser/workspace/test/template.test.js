'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { render } = require('../src/template');

test('render fills dotted paths', () => {
  assert.equal(render('Hello {{ user.name }}, order {{order.id}}', { user: { name: 'Ada' }, order: { id: 42 } }), 'Hello Ada, order 42');
});

test('a missing top-level value renders empty', () => {
  assert.equal(render('Hi {{name}}!', {}), 'Hi !');
});
