/** The small task's conversation: one crash group in the checkout service. */
import type { ScriptBuilder } from '../script';

const TEST = `'use strict';

// Regression test for crashes/unknown-coupon/: a coupon code the shop does not have was
// accepted, and the discount then read .percent of undefined.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Cart } = require('../src/cart');

for (const code of ['SUMMER20', 'spring-10', 'WELCOME 5']) {
  test(\`coupon "\${code}" is refused with a CheckoutError\`, () => {
    const cart = new Cart().add('TEE-L');
    assert.throws(() => cart.applyCoupon(code), { name: 'CheckoutError', message: \`unknown coupon \${code}\` });
  });
}

test('a refused coupon leaves the cart as it was', () => {
  const cart = new Cart().add('TEE-L').applyCoupon('spring10');
  assert.throws(() => cart.applyCoupon('SUMMER20'));
  assert.equal(cart.coupon, 'SPRING10');
  assert.equal(cart.total(), 1980);
});
`;

export function cartScript(b: ScriptBuilder): void {
  const reports = b.reports('unknown-coupon');
  b.say('Let me see the repository and the crash reports.', b.listFiles());
  b.say(
    'One crash folder, unknown-coupon, with three reports. The first one whole, then the coupon code and the app frames of every report.',
    b.read(reports[0]),
    b.search('"coupon":|^\\s+at .*/(src|bin)/', { path: 'crashes/unknown-coupon', regex: true, match: /3 files?[^]*order-88190\.txt/ }),
  );
  b.say(
    `Every trace ends in discountFor (${b.topFrame(reports[0])}) called from Cart.discount, for codes the shop does not have: SUMMER20, spring-10, "WELCOME 5". Reading the cart and the coupons.`,
    b.read('src/cart.js'),
    b.readLines('src/coupons.js', b.lineOf('src/coupons.js', '/** Cents off a subtotal'), b.lineOf('src/coupons.js', 'return Math.min(coupon.amount') + 1),
  );
  b.say(
    'applyCoupon stores any code, and discount() later looks it up in COUPONS and passes undefined to discountFor. The README says an unknown coupon must be a CheckoutError. A regression test first:',
    b.write('test/regression-unknown-coupon.test.js', TEST),
  );
  b.say('It should fail on the current code.', b.runTests(['test/regression-unknown-coupon.test.js'], false));
  b.say(
    'It fails. The fix: applyCoupon checks the code against COUPONS and refuses an unknown one, keeping the coupon the cart had.',
    b.patch('src/cart.js', [
      [
        '  applyCoupon(code) {\n    this.coupon = String(code).trim().toUpperCase();\n    return this;',
        '  applyCoupon(code) {\n    const key = String(code).trim().toUpperCase();\n    if (!Object.hasOwn(COUPONS, key)) throw new CheckoutError(`unknown coupon ${code}`);\n    this.coupon = key;\n    return this;',
      ],
    ]),
  );
  b.say('Now the whole suite.', b.runTests(undefined, true));
  b.say(
    'All tests pass. Filing the issue.',
    b.fileIssue(
      'an unknown coupon code crashes checkout instead of being refused',
      [
        'Orders with a coupon code the shop does not have were answered with a 500:',
        '',
        `    ${b.errorLine(reports[0])}`,
        `        at discountFor (${b.topFrame(reports[0])})`,
        '',
        `Crash reports: ${reports.join(', ')}.`,
        '',
        'Cause: Cart.applyCoupon stored any code, and Cart.discount then passed COUPONS[code] (undefined) to discountFor.',
        '',
        'Fixed: applyCoupon refuses a code that is not in COUPONS with a CheckoutError ("unknown coupon CODE"), which the front end shows to the customer. Regression test: test/regression-unknown-coupon.test.js.',
      ].join('\n'),
      'unknown-coupon',
      1,
    ),
  );
  b.answer(
    'Fixed and filed #1 unknown-coupon: Cart.applyCoupon now refuses a code the shop does not have with a CheckoutError instead of crashing later in discountFor (src/cart.js). The regression test failed before the fix, and the whole suite passes.',
  );
}
