/**
 * The batch task's conversation: six crash groups in parsekit, about fifty turns. One
 * group (semver-prerelease) takes two patches, as a real run does when the first fix
 * breaks an existing test.
 */
import type { ScriptBuilder } from '../script';

const head = `'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
`;

const TESTS = {
  csv: `${head}const { parseCsv } = require('../src/csv');

// crashes/csv-short-row/: rows with fewer fields than the header crashed parseCsv.
test('a trailing newline adds no row', () => {
  assert.deepEqual(parseCsv('sku,qty,location\\nA-100,4,shelf 2\\nA-101,7,shelf 3\\n'), [
    { sku: 'A-100', qty: '4', location: 'shelf 2' },
    { sku: 'A-101', qty: '7', location: 'shelf 3' },
  ]);
});

test('blank lines are skipped, CRLF too', () => {
  assert.deepEqual(parseCsv('id,amount\\r\\n1,9.50\\r\\n\\r\\n2,3.25\\r\\n'), [
    { id: '1', amount: '9.50' },
    { id: '2', amount: '3.25' },
  ]);
});

test('a missing field reads as empty', () => {
  assert.deepEqual(parseCsv('name,email,city\\nGrace,grace@example.org\\n'), [{ name: 'Grace', email: 'grace@example.org', city: '' }]);
});
`,
  ini: `${head}const { parseIni } = require('../src/ini');

// crashes/ini-key-before-section/: a key before the first [section] crashed parseIni.
test('keys before the first section go to the top level', () => {
  assert.deepEqual(parseIni('debug = true\\n\\n[server]\\nport = 8080\\n'), { debug: 'true', server: { port: '8080' } });
});

test('defaults before the first section, with a comment', () => {
  const text = '# defaults for every feed\\nretries=3\\ntimeout = 30s\\n\\n[feed]\\nurl=https://partner-b.example/export\\n';
  assert.deepEqual(parseIni(text), { retries: '3', timeout: '30s', feed: { url: 'https://partner-b.example/export' } });
});
`,
  duration: `${head}const { parseDuration } = require('../src/duration');

// crashes/duration-unknown-unit/: a unit parseDuration does not know crashed it.
for (const text of ['30min', '90sec', '2w']) {
  test(\`"\${text}" is a SyntaxError naming the unit\`, () => {
    assert.throws(() => parseDuration(text), { name: 'SyntaxError', message: /unknown unit/ });
  });
}

test('known units still add up after an unknown one is refused', () => {
  assert.equal(parseDuration('1h'), 3600000);
});
`,
  query: `${head}const { parseQuery } = require('../src/query');

// crashes/query-flag-without-value/: a key without "=value" crashed parseQuery.
test('a bare flag reads as an empty value', () => {
  assert.deepEqual(parseQuery('utm_source=mail&preview&id=17'), { utm_source: 'mail', preview: '', id: '17' });
});

test('a leading ? and a flag first', () => {
  assert.deepEqual(parseQuery('?debug&page=2'), { debug: '', page: '2' });
});
`,
  semver: `${head}const { parseVersion, compareVersions, maxVersion } = require('../src/semver');

// crashes/semver-prerelease/: a pre-release version crashed parseVersion.
test('parseVersion reads a pre-release', () => {
  assert.deepEqual(parseVersion('2.0.0-rc.1'), { major: 2, minor: 0, patch: 0, prerelease: 'rc.1' });
});

test('a pre-release sorts before its release, after the release before it', () => {
  assert.ok(compareVersions('2.0.0-rc.1', '2.0.0') < 0);
  assert.ok(compareVersions('1.3.0-beta.2', '1.2.9') > 0);
  assert.ok(compareVersions('1.0.0-rc.2', '1.0.0-rc.10') < 0);
});

test('maxVersion over the plugin manifest from the report', () => {
  assert.equal(maxVersion(['1.2.3', '1.3.0-beta.2', '1.2.9']), '1.3.0-beta.2');
});

test('text that is not a version is a SyntaxError', () => {
  assert.throws(() => parseVersion('1.4'), SyntaxError);
});
`,
  template: `${head}const { render } = require('../src/template');

// crashes/template-missing-path/: a missing (or null) object on a dotted path crashed render.
test('a missing object on the path renders empty', () => {
  assert.equal(render('Hi {{user.name}}, your order {{order.id}} has shipped.', { order: { id: 981 } }), 'Hi , your order 981 has shipped.');
});

test('a null object on the path renders empty', () => {
  assert.equal(render('Dear {{customer.first}}, invoice {{invoice.no}} is attached.', { customer: null, invoice: { no: '2025-0311' } }), 'Dear , invoice 2025-0311 is attached.');
});
`,
};

const COMPARE_PRERELEASE = `
/** A release sorts after its pre-releases; pre-releases compare part by part (numbers numerically). */
function comparePrerelease(a, b) {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    const nx = /^\\d+$/.test(x[i]);
    const ny = /^\\d+$/.test(y[i]);
    if (nx && ny && Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
    if (nx !== ny) return nx ? -1 : 1;
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}
`;

interface Issue {
  cause: string;
  title: string;
  what: string;
  cause_: string;
  fixed: string;
}

function issue(b: ScriptBuilder, n: number, i: Issue): ReturnType<ScriptBuilder['fileIssue']> {
  const reports = b.reports(i.cause);
  return b.fileIssue(
    i.title,
    [
      i.what,
      '',
      `    ${b.errorLine(reports[0])}`,
      `        at ${b.topFrame(reports[0])}`,
      '',
      `Crash reports: ${reports.join(', ')}.`,
      '',
      `Cause: ${i.cause_}`,
      '',
      `Fixed: ${i.fixed} Regression test: test/regression-${i.cause}.test.js.`,
    ].join('\n'),
    i.cause,
    n,
  );
}

export function batchScript(b: ScriptBuilder): void {
  const r = (cause: string): string[] => b.reports(cause);
  const t = (cause: string): string => `test/regression-${cause}.test.js`;

  b.say('First the layout of the repository and the crash folders.', b.listFiles());
  b.say('Six crash folders, one per parser. The README and a baseline test run first.', b.read('README.md'), b.runTests(undefined, true));

  // 1. csv-short-row
  const csv = r('csv-short-row');
  b.say('The baseline passes. Starting with csv-short-row: three reports.', ...csv.map((x) => b.read(x)));
  b.say(
    `All three fail at ${b.topFrame(csv[0])} reading .trim() of a field that is not there: a trailing newline, a blank line and a short row.`,
    b.readLines('src/csv.js', b.lineOf('src/csv.js', 'Parses CSV text') - 1, b.lineOf('src/csv.js', 'function parseCsv(text) {') + 11),
  );
  b.say(
    'parseCsv maps every line after the header, including empty ones, and reads fields[i] for every header name. A regression test with the three inputs:',
    b.write(t('csv-short-row'), TESTS.csv),
  );
  b.say('Run it on the current code.', b.runTests([t('csv-short-row')], false));
  b.say(
    'All three cases fail. The fix skips blank lines and reads a missing field as empty.',
    b.patch('src/csv.js', [
      ['  return lines.slice(1).map((line) => {', "  return lines\n    .slice(1)\n    .filter((line) => line.trim() !== '')\n    .map((line) => {"],
      [
        '    const fields = splitLine(line);\n    const row = {};\n    header.forEach((name, i) => {\n      row[name] = fields[i].trim();\n    });\n    return row;\n  });',
        "      const fields = splitLine(line);\n      const row = {};\n      header.forEach((name, i) => {\n        row[name] = (fields[i] ?? '').trim();\n      });\n      return row;\n    });",
      ],
    ]),
  );
  b.say('The whole suite.', b.runTests(undefined, true));
  b.say('Green. Checking the tracker before the first filing.', b.lookup({ cause: 'csv-short-row' }));
  b.say(
    'Nothing filed for it yet.',
    issue(b, 1, {
      cause: 'csv-short-row',
      title: 'parseCsv crashes on rows with fewer fields than the header',
      what: 'Three imports crashed on ordinary CSV: a file ending with a newline, a row with a missing last field, and a CRLF file with a blank line.',
      cause_:
        'parseCsv mapped every line after the header, blank ones included, and called .trim() on fields[i] for every header name, which is undefined for a short row.',
      fixed: 'blank lines are skipped and a missing field reads as an empty string.',
    }),
  );

  // 2. ini-key-before-section
  const ini = r('ini-key-before-section');
  b.say('Filed as #1. Next, ini-key-before-section; the reports share one layout, so I read each down to its stack trace.', ...ini.map((x) => b.readReport(x)));
  b.say(
    `Both configs have keys before the first [section]; the trace points at ${b.topFrame(ini[0])}.`,
    b.readLines('src/ini.js', b.lineOf('src/ini.js', 'Parses an INI file') - 1, b.lineOf('src/ini.js', 'return out;') + 1),
  );
  b.say(
    'The doc comment says keys before the first section belong to the top level, but `current` starts undefined. A regression test:',
    b.write(t('ini-key-before-section'), TESTS.ini),
  );
  b.say('Run it.', b.runTests([t('ini-key-before-section')], false));
  b.say('Fails as expected. The fix starts `current` at the top level.', b.patch('src/ini.js', [['  let current;\n', '  let current = out;\n']]));
  b.say('Whole suite.', b.runTests(undefined, true));
  b.say(
    'Passes.',
    issue(b, 2, {
      cause: 'ini-key-before-section',
      title: 'parseIni crashes on a key before the first [section]',
      what: 'Configs with top-level keys (defaults before the first section) stopped the worker from starting.',
      cause_:
        'parseIni started with no current section, so "current[key] = value" threw for every key before the first [section], although the doc comment says such keys belong to the top level.',
      fixed: 'keys before the first section go to the top-level object.',
    }),
  );

  // 3. duration-unknown-unit
  const dur = r('duration-unknown-unit');
  b.say('#2 filed. Now duration-unknown-unit.', ...dur.map((x) => b.readReport(x)));
  b.say(
    `"30min", "90sec" and "2w": units that are not in the table, failing at ${b.topFrame(dur[0])}.`,
    b.readLines('src/duration.js', 1, b.lineOf('src/duration.js', 'return total;') + 1),
  );
  b.say(
    'The input regex accepts any letters as a unit, and UNITS[unit] is undefined for one it does not know. Text it cannot read is already a SyntaxError, so an unknown unit should be one too, naming the unit. A regression test:',
    b.write(t('duration-unknown-unit'), TESTS.duration),
  );
  b.say('Run it.', b.runTests([t('duration-unknown-unit')], false));
  b.say(
    'The three cases fail with the TypeError. The fix:',
    b.patch('src/duration.js', [
      [
        '    total += Number(amount) * UNITS[unit].ms;',
        '    if (!Object.hasOwn(UNITS, unit)) throw new SyntaxError(`duration: unknown unit "${unit}" in "${text}" (use ms, s, m, h or d)`);\n    total += Number(amount) * UNITS[unit].ms;',
      ],
    ]),
  );
  b.say('Whole suite.', b.runTests(undefined, true));
  b.say(
    'Passes.',
    issue(b, 3, {
      cause: 'duration-unknown-unit',
      title: 'parseDuration crashes on a unit it does not know ("30min", "90sec", "2w")',
      what: 'Schedules written with units parseDuration does not know crashed the jobs instead of being rejected.',
      cause_: 'the input check accepts any letters as a unit, and UNITS[unit].ms then reads a property of undefined.',
      fixed: 'an unknown unit is a SyntaxError that names it and lists the known ones (ms, s, m, h, d).',
    }),
  );

  // 4. query-flag-without-value
  const q = r('query-flag-without-value');
  b.say('#3 filed. Next, query-flag-without-value.', ...q.map((x) => b.readReport(x)));
  b.say(
    `Both URLs have a bare key (preview, debug); the crash is in decode at ${b.topFrame(q[0])}.`,
    b.readLines('src/query.js', 1, b.lineOf('src/query.js', 'return out;') + 1),
  );
  b.say(
    'For a pair without "=", rawValue is undefined and decode calls .replace on it. A bare flag should read as an empty string. The test:',
    b.write(t('query-flag-without-value'), TESTS.query),
  );
  b.say('Run it.', b.runTests([t('query-flag-without-value')], false));
  b.say(
    'Fails. The fix:',
    b.patch('src/query.js', [['    const value = decode(rawValue);', "    const value = rawValue === undefined ? '' : decode(rawValue);"]]),
  );
  b.say('Whole suite.', b.runTests(undefined, true));
  b.say(
    'Passes.',
    issue(b, 4, {
      cause: 'query-flag-without-value',
      title: 'parseQuery crashes on a key without "=value"',
      what: 'Click-log URLs with a bare flag ("preview", "?debug") crashed the import.',
      cause_: 'pair.split("=") gives no value for a bare key, and decode() called .replace on undefined.',
      fixed: 'a key without a value reads as an empty string.',
    }),
  );

  // 5. semver-prerelease (two patches)
  const sv = r('semver-prerelease');
  b.say('#4 filed. Now semver-prerelease.', ...sv.map((x) => b.readReport(x)));
  b.say(
    `Pre-releases (2.0.0-rc.1, 1.3.0-beta.2) do not match the regex, so exec returns null and the destructuring at ${b.topFrame(sv[0])} throws.`,
    b.readLines('src/semver.js', 1, b.lineOf('src/semver.js', 'function maxVersion(list) {') + 2),
  );
  b.say(
    'Pre-releases have to parse, and sort before their release. A regression test, including the plugin manifest from the second report:',
    b.write(t('semver-prerelease'), TESTS.semver),
  );
  b.say('Run it.', b.runTests([t('semver-prerelease')], false));
  b.say(
    'Fails. The fix: accept a pre-release (and build metadata) in the regex, refuse text that is not a version with a SyntaxError, and compare pre-releases.',
    b.patch('src/semver.js', [
      [
        '  const [, major, minor, patch] = /^(\\d+)\\.(\\d+)\\.(\\d+)$/.exec(s);\n  return { major: Number(major), minor: Number(minor), patch: Number(patch) };\n}',
        '  const m = /^(\\d+)\\.(\\d+)\\.(\\d+)(?:-([0-9A-Za-z.-]+))?(?:\\+[0-9A-Za-z.-]+)?$/.exec(s);\n  if (!m) throw new SyntaxError(`version: cannot read "${text}"`);\n  const [, major, minor, patch, prerelease] = m;\n  return { major: Number(major), minor: Number(minor), patch: Number(patch), prerelease };\n}\n' +
          COMPARE_PRERELEASE,
      ],
      [
        '  return x.major - y.major || x.minor - y.minor || x.patch - y.patch;',
        '  return x.major - y.major || x.minor - y.minor || x.patch - y.patch || comparePrerelease(x.prerelease, y.prerelease);',
      ],
    ]),
  );
  b.say('Whole suite.', b.runTests(undefined, false));
  b.say(
    'The new test passes, but the existing semver test fails: it expects exactly { major, minor, patch }, and a release now carries prerelease: undefined. Only set the field when there is one:',
    b.patch('src/semver.js', [
      [
        '  return { major: Number(major), minor: Number(minor), patch: Number(patch), prerelease };',
        '  const version = { major: Number(major), minor: Number(minor), patch: Number(patch) };\n  if (prerelease !== undefined) version.prerelease = prerelease;\n  return version;',
      ],
    ]),
  );
  b.say('Whole suite again.', b.runTests(undefined, true));
  b.say(
    'All pass now.',
    issue(b, 5, {
      cause: 'semver-prerelease',
      title: 'parseVersion crashes on pre-release versions such as 2.0.0-rc.1',
      what: 'Manifests listing a release candidate or a beta crashed the jobs, including maxVersion over the plugin list.',
      cause_:
        'the version regex only matched MAJOR.MINOR.PATCH, so exec returned null for a pre-release and destructuring null threw; nothing compared pre-releases either.',
      fixed:
        'parseVersion reads a pre-release (and ignores build metadata), refuses text that is not a version with a SyntaxError, and compareVersions sorts a pre-release before its release.',
    }),
  );

  // 6. template-missing-path
  const tp = r('template-missing-path');
  b.say('#5 filed. Last, template-missing-path.', ...tp.map((x) => b.readReport(x)));
  b.say(
    `Guest orders have no user, company accounts have customer: null; both fail in lookup at ${b.topFrame(tp[0])}.`,
    b.readLines('src/template.js', 1, b.lineOf('src/template.js', 'function render(') + 5),
  );
  b.say(
    'render promises that a missing value renders empty, but lookup only survives a missing last key. Checking who else uses lookup before changing it:',
    b.search('lookup(', { glob: 'src/**/*.js' }),
  );
  b.say('Only render uses it. A regression test with both mails:', b.write(t('template-missing-path'), TESTS.template));
  b.say('Run it.', b.runTests([t('template-missing-path')], false));
  b.say(
    'Fails. The fix stops at a missing or null object on the path:',
    b.patch('src/template.js', [
      [
        "  return path.split('.').reduce((node, key) => node[key], data);",
        "  return path.split('.').reduce((node, key) => (node === undefined || node === null ? undefined : node[key]), data);",
      ],
    ]),
  );
  b.say('Whole suite.', b.runTests(undefined, true));
  b.say(
    'Passes.',
    issue(b, 6, {
      cause: 'template-missing-path',
      title: 'render crashes when an object on a dotted path is missing or null',
      what: 'Shipping and invoice mails were never sent when the data had no user object, or customer was null.',
      cause_:
        'lookup walked the dotted path with node[key] and threw as soon as an object on the way was undefined or null, although render documents that a missing value renders empty.',
      fixed: 'lookup returns undefined once the path meets a missing or null object, so the value renders empty.',
    }),
  );

  b.answer(
    [
      'All six crash groups are fixed, each with a regression test that failed before its fix, and the whole suite passes. Filed:',
      '',
      '- #1 csv-short-row: parseCsv skips blank lines and reads missing fields as empty (src/csv.js).',
      '- #2 ini-key-before-section: keys before the first [section] go to the top level (src/ini.js).',
      '- #3 duration-unknown-unit: an unknown unit is a SyntaxError naming it (src/duration.js).',
      '- #4 query-flag-without-value: a bare key reads as an empty value (src/query.js).',
      '- #5 semver-prerelease: pre-releases parse and sort before their release (src/semver.js).',
      '- #6 template-missing-path: a missing or null object on a path renders empty (src/template.js).',
    ].join('\n'),
  );
}
