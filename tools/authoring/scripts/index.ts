/** The scripted conversation of every bundled task, by task name. */
import type { ScriptBuilder } from '../script';
import { mainScript } from './m1-done-after-delete';
import { batchScript } from './batch-parser';
import { cartScript } from './cart-unknown-coupon';

export const scripts: Record<string, (b: ScriptBuilder) => void> = {
  'm1-done-after-delete': mainScript,
  'batch-parser': batchScript,
  'cart-unknown-coupon': cartScript,
};
