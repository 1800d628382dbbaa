'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Cart } = require('../src/cart');
const { receipt } = require('../src/receipt');
const { formatCents } = require('../src/money');

test('formatCents', () => {
  assert.equal(formatCents(1450), '$14.50');
  assert.equal(formatCents(-5), '-$0.05');
});

test('the receipt shows the coupon line', () => {
  const text = receipt(new Cart().add('CAP-02', 2).applyCoupon('STAFF25'));
  assert.match(text, /coupon STAFF25\s+-\$9\.00/);
  assert.match(text, /total\s+\$27\.00/);
});
