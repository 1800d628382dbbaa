/** The small task: one crash group in a checkout service. */
import type { TaskDefinition } from './definition';

export const cartUnknownCoupon: TaskDefinition = {
  name: 'cart-unknown-coupon',
  description: 'A checkout service that crashes on a coupon code the shop does not have, instead of telling the customer.',
  framing: 'The checkout service (this repository) answered some orders with a 500; the crash reports were collected.',
  groups: [
    {
      cause: 'unknown-coupon',
      summary: 'Cart.applyCoupon accepts any code, and the discount then dereferences a coupon that does not exist',
      file: 'src/cart.js',
    },
  ],
};
