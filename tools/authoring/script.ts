/**
 * A scripted conversation: the replies an author wants the recorded model to give, step
 * by step, with what each call's result must look like (checked against the real tools'
 * results while authoring, so the script's words match what really happened).
 *
 * The builder keeps the files as the script has changed them, so a patch is computed
 * against the file as it will be when the patch runs (a unified diff with exact context,
 * as a model would write it), and it reads facts (stack frames, report names) from the
 * sample rather than from memory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { appFrames } from './crash-reports';

/** What a call's result must look like: an error or not, and text it must contain. */
export interface Expect {
  ok?: boolean;
  match?: RegExp;
}

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
  expect?: Expect;
}

export interface ScriptStep {
  text?: string;
  calls: PlannedCall[];
}

export class ScriptBuilder {
  readonly steps: ScriptStep[] = [];
  private readonly files = new Map<string, string>();

  constructor(readonly sample: string) {}

  /** One reply: text and the calls it makes. */
  say(text: string, ...calls: PlannedCall[]): this {
    this.steps.push({ text, calls });
    return this;
  }

  /** The final answer (a reply without calls). */
  answer(text: string): this {
    this.steps.push({ text, calls: [] });
    return this;
  }

  listFiles(p?: string): PlannedCall {
    return { name: 'list_files', args: p === undefined ? {} : { path: p }, expect: { ok: true } };
  }

  /**
   * read_file of `p`: the whole file, or with `range` its lines start..start+count-1 (the
   * result must name that range and show its first line, numbered).
   */
  read(p: string, range?: { start: number; count: number }): PlannedCall {
    if (range === undefined) {
      const match = this.exists(p) ? new RegExp(escape(firstLine(this.content(p)))) : undefined;
      return { name: 'read_file', args: { path: p }, expect: { ok: true, ...(match ? { match } : {}) } };
    }
    const lines = this.lines(p);
    const last = Math.min(lines.length, range.start + range.count - 1);
    if (range.start > last) throw new Error(`script: ${p} has ${lines.length} lines; a read from line ${range.start} shows none`);
    const header = `${escape(p)}: lines ${range.start}-${last} of ${lines.length};`;
    const first = `\n${range.start}\t${escape(lines[range.start - 1])}(\n|$)`;
    return {
      name: 'read_file',
      args: { path: p, start_line: range.start, line_count: range.count },
      expect: { ok: true, match: new RegExp(`^${header}[^]*${first}`) },
    };
  }

  /** read_file of lines `from`..`to` (1-based, inclusive) of `p`. */
  readLines(p: string, from: number, to: number): PlannedCall {
    return this.read(p, { start: from, count: to - from + 1 });
  }

  /** The 1-based number of the one line of `p` that contains `text` (the script names code by its text, not by a number it would have to keep in step). */
  lineOf(p: string, text: string): number {
    const at = this.lines(p).flatMap((l, i) => (l.includes(text) ? [i + 1] : []));
    if (at.length !== 1) throw new Error(`script: "${text}" must be on exactly one line of ${p} (found on ${at.length})`);
    return at[0];
  }

  /**
   * A crash report's first `count` lines (default 30), as a model that has seen one report of
   * the sample reads the next: the header, the input and the stack trace down to the app's
   * frames, without the runtime's own frames and the footer. The lines must reach the last app frame.
   */
  readReport(report: string, count = 30): PlannedCall {
    const lines = this.lines(report);
    let last = -1;
    lines.forEach((l, i) => {
      if (/^\s+at .*\/(?:src|bin)\//.test(l)) last = i + 1;
    });
    if (last === -1) throw new Error(`script: no app frame in ${report}`);
    if (last > count) throw new Error(`script: the last app frame of ${report} is on line ${last}, past the ${count} lines read`);
    return this.read(report, { start: 1, count });
  }

  /** search_files for `query` (literal unless `o.regex`), optionally in a folder, a glob, with context lines. */
  search(query: string, o: { path?: string; glob?: string; regex?: boolean; context?: number; match?: RegExp } = {}): PlannedCall {
    const args: Record<string, unknown> = { query };
    if (o.path !== undefined) args.path = o.path;
    if (o.regex) args.regex = true;
    if (o.glob !== undefined) args.glob = o.glob;
    if (o.context !== undefined) args.context = o.context;
    return { name: 'search_files', args, expect: { ok: true, match: o.match ?? new RegExp(o.regex ? query : escape(query)) } };
  }

  /** run_tests; `passes` says whether the run must pass (true) or fail (false). */
  runTests(files: string[] | undefined, passes: boolean): PlannedCall {
    return {
      name: 'run_tests',
      args: files === undefined ? {} : { files },
      expect: { match: passes ? /^tests: [1-9]\d* passed, 0 failed/ : /^tests: \d+ passed, [1-9]\d* failed/ },
    };
  }

  write(p: string, content: string): PlannedCall {
    this.files.set(p, content);
    return { name: 'write_file', args: { path: p, content }, expect: { ok: true } };
  }

  /** code_patch of `p`: each [before, after] replaces one exact, unique snippet of the file as it is now. */
  patch(p: string, edits: [string, string][]): PlannedCall {
    const old = this.content(p);
    let next = old;
    for (const [before, after] of edits) {
      const at = next.indexOf(before);
      if (at === -1 || next.indexOf(before, at + 1) !== -1) throw new Error(`script: the snippet to replace in ${p} must occur exactly once:\n${before}`);
      next = next.slice(0, at) + after + next.slice(at + before.length);
    }
    this.files.set(p, next);
    const diff = createTwoFilesPatch(`a/${p}`, `b/${p}`, old, next, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
    return { name: 'code_patch', args: { path: p, patch: diff }, expect: { ok: true } };
  }

  fileIssue(title: string, body: string, cause: string, number: number): PlannedCall {
    return { name: 'issue_file', args: { title, body, cause }, expect: { ok: true, match: new RegExp(`#${number}(?!\\d)`) } };
  }

  lookup(args: { number?: number; cause?: string }): PlannedCall {
    return { name: 'issue_lookup', args, expect: { ok: true } };
  }

  /** A file as the script has left it (the sample's, until the script changes it). */
  content(p: string): string {
    const mine = this.files.get(p);
    if (mine !== undefined) return mine;
    return fs.readFileSync(path.join(this.sample, ...p.split('/')), 'utf8');
  }

  /** The lines of a file as the script has left it (as read_file numbers them). */
  lines(p: string): string[] {
    const text = this.content(p);
    const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    if (text.endsWith('\n')) lines.pop();
    return lines;
  }

  exists(p: string): boolean {
    return this.files.has(p) || fs.existsSync(path.join(this.sample, ...p.split('/')));
  }

  /** The crash reports of a group, workspace-relative, sorted. */
  reports(cause: string): string[] {
    const dir = path.join(this.sample, 'crashes', cause);
    return fs
      .readdirSync(dir)
      .sort()
      .map((f) => `crashes/${cause}/${f}`);
  }

  /** The report's first stack frame in the app, as "src/todos.js:50:22". */
  topFrame(report: string): string {
    const text = this.content(report);
    const root = /^\s+at (?:.*? \()?(\/\S+?)\/(?:src|bin)\//m.exec(text)?.[1];
    if (!root) throw new Error(`script: no app frame in ${report}`);
    const frames = appFrames(text, root);
    if (frames.length === 0) throw new Error(`script: no app frame in ${report}`);
    return frames[0];
  }

  /** The report's error line, e.g. "TypeError: Cannot read properties of undefined (reading 'done')". */
  errorLine(report: string): string {
    const m = /^(\w*Error: .*)$/m.exec(this.content(report));
    if (!m) throw new Error(`script: no error line in ${report}`);
    return m[1];
  }
}

function firstLine(s: string): string {
  return (
    s
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 60) ?? ''
  );
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
