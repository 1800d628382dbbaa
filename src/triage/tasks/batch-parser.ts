/** The batch task: six crash groups in a parser library, a long run (over 100 checkpoint saves). */
import type { TaskDefinition } from './definition';

export const batchParser: TaskDefinition = {
  name: 'batch-parser',
  description: 'A batch of six crash groups in parsekit, the parsers of the nightly import jobs: CSV, INI, durations, query strings, versions and templates.',
  framing: 'The nightly import jobs that use parsekit (this repository) crashed on several inputs last week; their crash reports were collected.',
  groups: [
    {
      cause: 'csv-short-row',
      summary: 'parseCsv crashes on a row with fewer fields than the header (a trailing newline, a blank line, a missing field)',
      file: 'src/csv.js',
    },
    { cause: 'ini-key-before-section', summary: 'parseIni crashes on a key that comes before the first [section]', file: 'src/ini.js' },
    { cause: 'duration-unknown-unit', summary: 'parseDuration crashes on a unit it does not know instead of a SyntaxError', file: 'src/duration.js' },
    { cause: 'query-flag-without-value', summary: 'parseQuery crashes on a key without "=value"', file: 'src/query.js' },
    { cause: 'semver-prerelease', summary: 'parseVersion crashes on a pre-release version such as 2.0.0-rc.1', file: 'src/semver.js' },
    {
      cause: 'template-missing-path',
      summary: 'render crashes when an object on a dotted path is missing instead of rendering it empty',
      file: 'src/template.js',
    },
  ],
};
