/** The node:test ecosystem's flow (test/cli/ecosystems/node-test.ts). */
import { ecosystemFlowTest } from './flow';
import { NODE_TEST } from './node-test';

ecosystemFlowTest(NODE_TEST);
