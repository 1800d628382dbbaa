/** The crash scenarios of every bundled task, by task name. */
import type { CrashSet } from '../crash-reports';
import { doneAfterDelete } from './m1-done-after-delete';
import { batchParser } from './batch-parser';
import { cartUnknownCoupon } from './cart-unknown-coupon';

export const crashSets: Record<string, CrashSet> = {
  [doneAfterDelete.task]: doneAfterDelete,
  [batchParser.task]: batchParser,
  [cartUnknownCoupon.task]: cartUnknownCoupon,
};
