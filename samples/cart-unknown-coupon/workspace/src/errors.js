'use strict';

/** A mistake in the order (unknown SKU, bad quantity, unknown coupon): shown to the customer. */
class CheckoutError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CheckoutError';
  }
}

module.exports = { CheckoutError };
