/** The stand-in Sentry's issues for the node fixture repository (test/fixtures/repos/node): frames as a production install reports them. */
import type { StandinSentryIssue } from './sentry-standin';

export const NODE_FIXTURE_ISSUES: StandinSentryIssue[] = [
  {
    id: '101',
    title: "TypeError: Cannot read properties of undefined (reading 'ms')",
    culprit: 'parseDuration(/srv/durations/src/duration)',
    count: 1024,
    userCount: 37,
    type: 'TypeError',
    value: "Cannot read properties of undefined (reading 'ms')",
    frames: [
      { absPath: 'node:internal/main/run_main_module', function: 'runMain', lineNo: 1, inApp: false },
      { absPath: '/srv/durations/src/cli.js', function: 'main', lineNo: 12, inApp: true },
      { absPath: '/srv/durations/src/cli.js', function: 'sumFile', lineNo: 7, inApp: true },
      { absPath: '<anonymous>', function: 'Array.map', lineNo: 0, inApp: false },
      { absPath: '/srv/durations/src/duration.js', function: 'parseDuration', lineNo: 12, inApp: true },
    ],
  },
  {
    id: '102',
    title: 'TypeError: Reduce of empty array with no initial value',
    culprit: 'total(/srv/durations/src/report)',
    count: 310,
    userCount: 12,
    type: 'TypeError',
    value: 'Reduce of empty array with no initial value',
    frames: [
      { absPath: '/srv/durations/src/cli.js', function: 'sumFile', lineNo: 8, inApp: true },
      { absPath: '/srv/durations/src/report.js', function: 'total', lineNo: 4, inApp: true },
      { absPath: '<anonymous>', function: 'Array.reduce', lineNo: 0, inApp: false },
    ],
  },
  {
    id: '103',
    title: 'Error: connect ECONNREFUSED 10.0.0.5:5432',
    culprit: 'TCPConnectWrap.afterConnect(node:net)',
    count: 7,
    userCount: 1,
    type: 'Error',
    value: 'connect ECONNREFUSED 10.0.0.5:5432',
    frames: [
      { absPath: '/srv/durations/node_modules/pg/lib/client.js', function: 'Client.connect', lineNo: 132, inApp: false },
      { absPath: '/srv/durations/src/cli.js', function: 'main', lineNo: 12, inApp: false },
    ],
  },
];
