'use strict';

/** Coupon codes, upper case: a percentage off the subtotal, or a fixed amount in cents. */
const COUPONS = {
  SPRING10: { percent: 10 },
  WELCOME5: { amount: 500 },
  STAFF25: { percent: 25 },
};

/** Cents off a subtotal for a coupon. */
function discountFor(coupon, subtotal) {
  if (coupon.percent !== undefined) return Math.round((subtotal * coupon.percent) / 100);
  return Math.min(coupon.amount, subtotal);
}

module.exports = { COUPONS, discountFor };
