/** Crash reports of the small task: the checkout service meeting coupon codes the shop does not have. */
import type { CrashScenario, CrashSet } from '../crash-reports';

const ROOT = '/srv/shop/checkout';

const order = (s: Omit<CrashScenario, 'argv' | 'shown' | 'installRoot' | 'group'>): CrashScenario => ({
  argv: ['bin/checkout.js'],
  shown: 'checkout < order.json',
  installRoot: ROOT,
  group: 'unknown-coupon',
  ...s,
});

export const cartUnknownCoupon: CrashSet = {
  task: 'cart-unknown-coupon',
  app: 'checkout 0.9.1',
  scenarios: [
    order({
      file: 'order-88121.txt',
      stdin: '{"items":[{"sku":"TEE-L","qty":1}],"coupon":"SUMMER20"}\n',
      time: '2025-03-11T10:21:07.345Z',
      host: 'shop-web-1',
      note: 'Customer typed last summer\'s code. They got a 500 page instead of "unknown coupon".',
    }),
    order({
      file: 'order-88167.txt',
      stdin: '{"items":[{"sku":"MUG-01","qty":2},{"sku":"STK-10"}],"coupon":"spring-10"}\n',
      time: '2025-03-11T13:48:52.610Z',
      host: 'shop-web-2',
      note: 'Code with a dash (the flyer says SPRING10).',
    }),
    order({
      file: 'order-88190.txt',
      stdin: '{"items":[{"sku":"CAP-02","qty":1}],"coupon":"WELCOME 5"}\n',
      time: '2025-03-11T16:09:30.004Z',
      host: 'shop-web-1',
      note: 'A space in the code.',
    }),
  ],
};
