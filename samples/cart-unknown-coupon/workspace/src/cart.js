'use strict';

const { CheckoutError } = require('./errors');
const { PRODUCTS } = require('./catalog');
const { COUPONS, discountFor } = require('./coupons');

class Cart {
  constructor() {
    this.lines = [];
    this.coupon = null;
  }

  add(sku, qty = 1) {
    const product = PRODUCTS[sku];
    if (!product) throw new CheckoutError(`unknown product ${sku}`);
    if (!Number.isInteger(qty) || qty < 1) throw new CheckoutError(`bad quantity ${qty} for ${sku}`);
    const line = this.lines.find((l) => l.sku === sku);
    if (line) line.qty += qty;
    else this.lines.push({ sku, qty, price: product.price });
    return this;
  }

  /** Applies a coupon code (case does not matter); a second code replaces the first. */
  applyCoupon(code) {
    this.coupon = String(code).trim().toUpperCase();
    return this;
  }

  subtotal() {
    return this.lines.reduce((sum, l) => sum + l.qty * l.price, 0);
  }

  discount() {
    if (this.coupon === null) return 0;
    return discountFor(COUPONS[this.coupon], this.subtotal());
  }

  total() {
    return this.subtotal() - this.discount();
  }
}

module.exports = { Cart };
