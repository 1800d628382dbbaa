/**
 * vitest on an ESM TypeScript package (`"type": "module"`, src/*.ts with import syntax; vitest,
 * typescript and @types/node from the npm registry): npm ci in the user's checkout and in each
 * cause's worktree (from npm's cache), the regression test a vitest test in TypeScript. The crash
 * is the code run as production runs it: compiled by tsc to the gitignored dist/ with source maps,
 * then `node --enable-source-maps dist/cli.js`, so the stack names the .ts files; a TypeError of
 * an order sent without a coupon.
 */
import { ecosystemFlowTest, type Ecosystem } from './flow';
import { npmCi } from './node-test';

/** An order of two items and no coupon. */
const NO_COUPON = '{"lines":[{"sku":"MUG-1","unitCents":1250,"quantity":2}]}';

export const NPM_VITEST: Ecosystem = {
  name: 'npm-vitest',
  appRoot: '/srv/order-totals',
  install: npmCi,
  suite: ['npm', 'test'],
  causes: [
    {
      cause: 'discount-percent-type-error',
      crash: { command: ['sh', '-c', 'npm run --silent build && node --enable-source-maps dist/cli.js "$0"', NO_COUPON], language: 'node' },
      events: 644,
      test: {
        file: 'test/no-coupon.test.ts',
        content: `import { expect, it } from 'vitest';
import { totalCents } from '../src/order.js';

it('an order without a coupon costs its subtotal', () => {
  expect(totalCents({ lines: [{ sku: 'MUG-1', unitCents: 1250, quantity: 2 }] })).toBe(2500);
});
`,
      },
      fix: {
        file: 'src/order.ts',
        what: 'an order without a coupon',
        content: `import { discountPercent } from './coupon.js';

export interface Line {
  sku: string;
  unitCents: number;
  quantity: number;
}

export interface Order {
  lines: Line[];
  coupon?: string;
}

/** What the order costs, in cents, after its coupon if it has one. */
export function totalCents(order: Order): number {
  const subtotal = order.lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
  const percent = order.coupon === undefined ? 0 : discountPercent(order.coupon);
  return Math.round((subtotal * (100 - percent)) / 100);
}
`,
      },
    },
  ],
};

ecosystemFlowTest(NPM_VITEST);
