/**
 * Crash reports for the bundled samples, produced by really running each sample's entry
 * point on the input a user sent: the stack traces are Node's own, so every file:line in
 * them points at the real buggy line. The workspace path is replaced by where the app
 * was installed on the user's machine.
 *
 *   node out/tools/authoring/crash-reports.js [task...]   rewrites crashes/ of the samples
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BadInputError } from '../../src/core/errors';

export interface CrashScenario {
  /** The crash group: the folder under crashes/ (the cause). */
  group: string;
  /** The report's file name inside the group folder. */
  file: string;
  /** The entry script and its arguments, relative to the workspace (run with `node`). */
  argv: string[];
  /** The command as the user typed it, for the report's header. */
  shown: string;
  stdin: string;
  /** Where the app was installed on the reporter's machine (replaces the workspace path). */
  installRoot: string;
  time: string;
  host: string;
  /** A line or two the reporter wrote. */
  note: string;
}

export interface CrashSet {
  task: string;
  app: string;
  scenarios: CrashScenario[];
}

export interface RunCrash {
  exitCode: number | null;
  /** stderr with the workspace path replaced by the install root. */
  stderr: string;
}

/** Runs one scenario in `workspace` (the sample, or a fixed copy of it). */
export function runScenario(workspace: string, s: CrashScenario): RunCrash {
  const r = spawnSync(process.execPath, s.argv, { cwd: workspace, input: s.stdin, encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw r.error;
  const root = fs.realpathSync(workspace);
  const stderr = r.stderr.split(root).join(s.installRoot).split(workspace).join(s.installRoot);
  return { exitCode: r.status, stderr };
}

/** True when the output is Node's report of an uncaught exception (a crash, not a reported mistake). */
export function isUncaught(r: RunCrash): boolean {
  return r.exitCode !== 0 && /^\s+at .+:\d+:\d+\)?$/m.test(r.stderr) && /^Node\.js v\d+/m.test(r.stderr);
}

export function formatReport(app: string, s: CrashScenario, r: RunCrash): string {
  const bytes = Buffer.byteLength(s.stdin);
  const end = s.stdin.endsWith('\n') ? 'ends with a newline' : 'no newline at the end';
  return [
    `${app} crash report`,
    `time:     ${s.time}`,
    `host:     ${s.host}`,
    `node:     ${process.version} (${process.platform} ${process.arch})`,
    `command:  ${s.shown}`,
    `exit:     ${r.exitCode}`,
    '',
    'reporter says:',
    ...s.note.split('\n').map((l) => `  ${l}`),
    '',
    '--- stdin ---',
    s.stdin.endsWith('\n') ? s.stdin.slice(0, -1) : s.stdin,
    `--- end of stdin (${bytes} bytes, ${end}) ---`,
    '',
    '--- stderr ---',
    r.stderr.trimEnd(),
    '',
  ].join('\n');
}

/** Writes crashes/<group>/<file> for every scenario; refuses a scenario that does not crash. */
export function writeCrashReports(workspace: string, set: CrashSet): string[] {
  const crashes = path.join(workspace, 'crashes');
  fs.rmSync(crashes, { recursive: true, force: true });
  const written: string[] = [];
  for (const s of set.scenarios) {
    const r = runScenario(workspace, s);
    if (!isUncaught(r)) throw new Error(`${set.task}: scenario ${s.group}/${s.file} did not crash (exit ${r.exitCode}):\n${r.stderr}`);
    const file = path.join(crashes, s.group, s.file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, formatReport(set.app, s, r));
    written.push(path.relative(workspace, file));
  }
  return written;
}

/** The stack frames that point into the app (not Node's internals), as "file:line:col" relative to the install root. */
export function appFrames(report: string, installRoot: string): string[] {
  const out: string[] = [];
  const prefix = installRoot.endsWith('/') ? installRoot : `${installRoot}/`;
  for (const m of report.matchAll(/^\s+at (?:.*? \()?(\S+?):(\d+):(\d+)\)?$/gm)) {
    if (m[1].startsWith(prefix)) out.push(`${m[1].slice(prefix.length)}:${m[2]}:${m[3]}`);
  }
  return out;
}

async function main(argv: string[]): Promise<void> {
  const { crashSets } = await import('./crashes');
  const { findTask } = await import('../../src/triage/tasks/catalog');
  const names = argv.length > 0 ? argv : Object.keys(crashSets);
  for (const name of names) {
    const set = crashSets[name];
    if (!set) throw new BadInputError(`No crash scenarios for task "${name}"; known: ${Object.keys(crashSets).join(', ')}.`);
    const written = writeCrashReports(findTask(name).sample, set);
    process.stdout.write(`${name}: wrote ${written.length} crash reports\n`);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`crash-reports: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}
