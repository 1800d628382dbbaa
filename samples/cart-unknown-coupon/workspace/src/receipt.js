'use strict';

const { PRODUCTS } = require('./catalog');
const { formatCents } = require('./money');

function receipt(cart) {
  const rows = cart.lines.map((l) => `${String(l.qty).padStart(3)} x ${PRODUCTS[l.sku].name.padEnd(14)} ${formatCents(l.qty * l.price).padStart(9)}`);
  rows.push(`${'subtotal'.padEnd(20)} ${formatCents(cart.subtotal()).padStart(9)}`);
  const discount = cart.discount();
  if (discount > 0) rows.push(`${`coupon ${cart.coupon}`.padEnd(20)} ${formatCents(-discount).padStart(9)}`);
  rows.push(`${'total'.padEnd(20)} ${formatCents(cart.total()).padStart(9)}`);
  return rows.join('\n');
}

module.exports = { receipt };
