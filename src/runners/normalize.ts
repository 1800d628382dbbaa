/**
 * Making a runner's text the same for the same workspace state: colours, durations and the
 * workspace's absolute path (and its real path, and file:// URLs of it) go; the root is ".".
 * Stack frames of the runtime and of node_modules say nothing about the workspace and are dropped.
 */
import * as fs from 'node:fs';

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are what it removes
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;
const DURATION = /\s*\((?:\d+(?:\.\d+)?\s?(?:ms|s|m))\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** The workspace root as it may appear in output: the given path and its real path, longest first. */
function rootsOf(root: string): string[] {
  const roots = new Set([root]);
  try {
    roots.add(fs.realpathSync(root));
  } catch {
    // the root is gone; nothing more to replace
  }
  return [...roots].sort((a, b) => b.length - a.length);
}

/** Colours and durations removed, the workspace root replaced with "."; lines that are only a duration dropped. */
export function normalize(text: string, root: string): string {
  let out = stripAnsi(text.replace(/\r\n/g, '\n'));
  for (const r of rootsOf(root)) out = out.split(`file://${r}`).join('.').split(r).join('.');
  return out
    .split('\n')
    .filter((l) => !/^\s*(# )?duration_ms[: ]/.test(l))
    .map((l) => l.replace(DURATION, ''))
    .join('\n');
}

/** A stack frame line of the runtime or of a dependency (node:internal, node_modules, <anonymous> natives). */
export function isForeignFrame(line: string): boolean {
  const l = line.trim();
  if (/^node:internal\/\S+:\d+$/.test(l)) return true;
  if (!/^at /.test(l)) return false;
  return /\(node:|^at node:|node_modules[\\/]|\(<anonymous>\)|^at async Promise\.all|^at new Promise \(<anonymous>\)/.test(l);
}

/** A failure's detail: normalized, foreign stack frames dropped, at most `maxLines` lines. */
export function trimDetail(text: string, root: string, maxLines = 30): string {
  const lines = normalize(text, root)
    .split('\n')
    .filter((l) => !isForeignFrame(l))
    .map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  if (lines.length <= maxLines) return lines.join('\n');
  return [...lines.slice(0, maxLines), `... ${lines.length - maxLines} more lines`].join('\n');
}

export function lastLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}
