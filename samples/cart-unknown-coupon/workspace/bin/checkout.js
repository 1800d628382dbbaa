#!/usr/bin/env node
'use strict';

// Reads an order as JSON on stdin and prints its receipt.
const fs = require('node:fs');
const { Cart } = require('../src/cart');
const { receipt } = require('../src/receipt');
const { CheckoutError } = require('../src/errors');

function checkout(order) {
  const cart = new Cart();
  for (const item of order.items ?? []) cart.add(item.sku, item.qty ?? 1);
  if (order.coupon) cart.applyCoupon(order.coupon);
  return receipt(cart);
}

try {
  process.stdout.write(checkout(JSON.parse(fs.readFileSync(0, 'utf8'))) + '\n');
} catch (e) {
  if (!(e instanceof CheckoutError)) throw e;
  process.stderr.write(`checkout: ${e.message}\n`);
  process.exitCode = 2;
}
