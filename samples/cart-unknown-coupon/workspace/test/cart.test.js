'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Cart } = require('../src/cart');

test('subtotal adds up lines and merges repeated SKUs', () => {
  const cart = new Cart().add('MUG-01', 2).add('STK-10').add('MUG-01');
  assert.equal(cart.subtotal(), 3 * 1450 + 500);
});

test('an unknown product is a checkout error', () => {
  assert.throws(() => new Cart().add('NOPE'), { name: 'CheckoutError' });
});

test('percentage and fixed coupons, in any case', () => {
  assert.equal(new Cart().add('TEE-M').applyCoupon('spring10').total(), 1980);
  assert.equal(new Cart().add('STK-10').applyCoupon('WELCOME5').total(), 0);
});
