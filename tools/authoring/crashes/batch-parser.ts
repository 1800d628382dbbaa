/** Crash reports of the batch task: the nightly import jobs calling parsekit, six causes. */
import type { CrashScenario, CrashSet } from '../crash-reports';

const ROOT = '/opt/import-jobs/node_modules/parsekit';

function kit(kind: string, shownInput: string, s: Omit<CrashScenario, 'argv' | 'shown' | 'installRoot'>, arg?: string): CrashScenario {
  const argv = ['bin/parsekit.js', kind, ...(arg === undefined ? [] : [arg])];
  const shown = `parsekit ${kind}${arg === undefined ? '' : ` '${arg}'`} < ${shownInput}`;
  return { argv, shown, installRoot: ROOT, ...s };
}

export const batchParser: CrashSet = {
  task: 'batch-parser',
  app: 'parsekit 2.3.0 (import-jobs)',
  scenarios: [
    kit('csv', 'exports/2025-03-08/stock.csv', {
      group: 'csv-short-row',
      file: 'job-4411-stock.txt',
      stdin: 'sku,qty,location\nA-100,4,shelf 2\nA-101,7,shelf 3\n',
      time: '2025-03-08T02:00:14.551Z',
      host: 'import-worker-2',
      note: 'Nightly stock import. The warehouse export ends with a newline, as it always did.',
    }),
    kit('csv', 'uploads/newsletter-signups.csv', {
      group: 'csv-short-row',
      file: 'job-4436-signups.txt',
      stdin: 'name,email,city\nAda,ada@example.org,London\nGrace,grace@example.org\n',
      time: '2025-03-08T09:12:40.007Z',
      host: 'import-worker-1',
      note: 'One signup has no city; the whole file was rejected with a crash.',
    }),
    kit('csv', 'exports/2025-03-09/payments.csv', {
      group: 'csv-short-row',
      file: 'job-4458-payments.txt',
      stdin: 'id,amount\r\n1,9.50\r\n\r\n2,3.25\r\n',
      time: '2025-03-09T02:00:09.913Z',
      host: 'import-worker-2',
      note: 'Payments export from the bank portal (CRLF, a blank line in the middle).',
    }),
    kit('ini', 'config/importer.ini', {
      group: 'ini-key-before-section',
      file: 'job-4402-config.txt',
      stdin: 'debug = true\n\n[server]\nport = 8080\n',
      time: '2025-03-07T23:58:02.330Z',
      host: 'import-worker-1',
      note: 'Worker did not start after we added a top-level "debug" key to its config.',
    }),
    kit('ini', 'config/feeds/partner-b.ini', {
      group: 'ini-key-before-section',
      file: 'job-4470-partner-b.txt',
      stdin: '# defaults for every feed\nretries=3\ntimeout = 30s\n\n[feed]\nurl=https://partner-b.example/export\n',
      time: '2025-03-09T14:21:55.604Z',
      host: 'import-worker-3',
      note: 'Partner B sent a config with defaults before the first section.',
    }),
    kit('duration', 'schedules/cleanup.txt', {
      group: 'duration-unknown-unit',
      file: 'job-4419-cleanup.txt',
      stdin: '30min\n',
      time: '2025-03-08T03:30:00.118Z',
      host: 'import-worker-2',
      note: 'Cleanup schedule with "30min" instead of "30m".',
    }),
    kit('duration', 'schedules/retry-backoff.txt', {
      group: 'duration-unknown-unit',
      file: 'job-4441-backoff.txt',
      stdin: '1h\n90sec\n',
      time: '2025-03-08T12:44:31.276Z',
      host: 'import-worker-1',
      note: 'Second line of the backoff schedule.',
    }),
    kit('duration', 'schedules/archive.txt', {
      group: 'duration-unknown-unit',
      file: 'job-4463-archive.txt',
      stdin: '2w\n',
      time: '2025-03-09T04:00:00.502Z',
      host: 'import-worker-3',
      note: 'Archive retention of two weeks.',
    }),
    kit('query', 'logs/clicks-0308.txt (line 1187)', {
      group: 'query-flag-without-value',
      file: 'job-4427-clicks.txt',
      stdin: 'utm_source=mail&preview&id=17\n',
      time: '2025-03-08T06:15:44.890Z',
      host: 'import-worker-2',
      note: 'Click log import; this URL has a bare "preview" flag.',
    }),
    kit('query', 'logs/clicks-0309.txt (line 42)', {
      group: 'query-flag-without-value',
      file: 'job-4466-clicks.txt',
      stdin: '?debug&page=2\n',
      time: '2025-03-09T06:15:41.035Z',
      host: 'import-worker-2',
      note: 'Same job the next night, a different URL.',
    }),
    kit('version', 'manifests/agents.txt', {
      group: 'semver-prerelease',
      file: 'job-4432-agents.txt',
      stdin: '1.4.0\n2.0.0-rc.1\n',
      time: '2025-03-08T07:05:12.660Z',
      host: 'import-worker-3',
      note: 'A release candidate of the agent showed up in the manifest.',
    }),
    kit('max-version', 'manifests/plugins.txt', {
      group: 'semver-prerelease',
      file: 'job-4459-plugins.txt',
      stdin: '1.2.3\n1.3.0-beta.2\n1.2.9\n',
      time: '2025-03-09T07:05:09.447Z',
      host: 'import-worker-3',
      note: 'Picking the newest plugin version crashed on a beta.',
    }),
    kit(
      'template',
      'templates/shipped.txt',
      {
        group: 'template-missing-path',
        file: 'job-4445-shipped.txt',
        stdin: 'Hi {{user.name}}, your order {{order.id}} has shipped.',
        time: '2025-03-08T15:30:27.193Z',
        host: 'mailer-1',
        note: 'Guest checkout orders have no user object; the mail was never sent.',
      },
      '{"order":{"id":981}}',
    ),
    kit(
      'template',
      'templates/invoice.txt',
      {
        group: 'template-missing-path',
        file: 'job-4472-invoice.txt',
        stdin: 'Dear {{customer.first}}, invoice {{invoice.no}} is attached.',
        time: '2025-03-09T16:02:18.771Z',
        host: 'mailer-1',
        note: 'Invoice mail for a company account (customer is null there).',
      },
      '{"customer":null,"invoice":{"no":"2025-0311"}}',
    ),
  ],
};
