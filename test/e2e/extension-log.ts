// The extension's own log file in the editor's logs folder (the LogOutputChannel LOG_NAME): what
// a scenario waits on when the extension has no other visible sign of having done a thing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findFiles } from './artifacts';
import { waitFor, type E2eSession } from './harness';
import { LOG_NAME } from './triage-ui';

/** The lines of the extension's log (every log file of this session's editor) matching `what`. */
export function extensionLogLines(s: E2eSession, what: RegExp): string[] {
  const lines: string[] = [];
  for (const f of findFiles(path.join(s.server.userDataDir, 'logs'), (n) => n === `${LOG_NAME}.log`)) {
    lines.push(
      ...fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => what.test(l)),
    );
  }
  return lines;
}

/** The first line of the extension's log that matches `what`, waiting until it has logged one after the first `after` such lines. */
export async function extensionLogLine(s: E2eSession, what: RegExp, after = 0): Promise<string> {
  return waitFor(() => extensionLogLines(s, what)[after], {
    what: `the extension's log (${LOG_NAME}.log) to have a line matching ${what}${after ? ` after the ${after} it had` : ''}`,
    timeoutMs: 60_000,
    intervalMs: 250,
  });
}
