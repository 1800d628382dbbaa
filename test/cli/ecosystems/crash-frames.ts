/**
 * A real crash as Sentry stores it: the buggy code is run, and the stack trace it dies with (V8's,
 * CPython's traceback, a Go panic) becomes the stand-in's issue: its frames oldest first, the
 * checkout's path replaced by where production runs it, frames outside the repository's own code
 * (node:internal, node_modules, site-packages, the Go runtime) not in-app.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { StandinFrame, StandinSentryIssue } from '../../support/sentry-standin';
import type { EcosystemCause } from './flow';

export type CrashLanguage = 'node' | 'python' | 'go';

/** Runs the cause's crash in `checkout` and makes the Sentry issue `id` of it. */
export function crashIssue(checkout: string, appRoot: string, c: EcosystemCause, id: string): StandinSentryIssue {
  const r = spawnSync(c.crash.command[0], c.crash.command.slice(1), { cwd: path.join(checkout, c.crash.cwd ?? ''), encoding: 'utf8', timeout: 120_000 });
  assert.notEqual(r.status, 0, `the crash of ${c.cause} (${c.crash.command.join(' ')}) did not crash:\n${r.stdout}\n${r.stderr}`);
  const { type, value, frames } = parseCrash(c.crash.language, r.stderr, checkout, appRoot);
  assert.ok(
    frames.some((f) => f.inApp),
    `the crash of ${c.cause} has no frame in the repository's code:\n${r.stderr}`,
  );
  const top = [...frames].reverse().find((f) => f.inApp)!;
  return {
    id,
    title: `${type}: ${value}`,
    culprit: `${top.function}(${top.absPath.replace(/\.[a-z]+$/, '')})`,
    count: c.events,
    userCount: Math.max(1, Math.floor(c.events / 20)),
    type,
    value,
    frames,
  };
}

export function parseCrash(
  language: CrashLanguage,
  stderr: string,
  checkout: string,
  appRoot: string,
): { type: string; value: string; frames: StandinFrame[] } {
  const prod = (p: string): string => (p.startsWith(checkout + path.sep) ? appRoot + p.slice(checkout.length) : p);
  const inApp = (p: string): boolean => p.startsWith(appRoot + '/') && !/\/(node_modules|site-packages|\.venv|venv)\//.test(p);
  if (language === 'node') return parseV8(stderr, prod, inApp);
  if (language === 'python') return parsePython(stderr, prod, inApp);
  return parseGo(stderr, prod, inApp);
}

type Map = (p: string) => string;
type InApp = (p: string) => boolean;

function parseV8(stderr: string, prod: Map, inApp: InApp): { type: string; value: string; frames: StandinFrame[] } {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => /^\s+at /.test(l));
  assert.ok(at > 0, `no V8 stack in:\n${stderr}`);
  const head = lines[at - 1];
  const m = /^(\w*Error|\w+): (.*)$/.exec(head.trim());
  assert.ok(m, `no "Type: message" line above the stack in:\n${stderr}`);
  const frames: StandinFrame[] = [];
  for (const l of lines.slice(at)) {
    const f = /^\s+at (?:(.+?) \()?(?:file:\/\/)?([^()\s]+?):(\d+):\d+\)?$/.exec(l);
    if (!f) {
      if (/^\s+at /.test(l)) continue;
      break;
    }
    const abs = prod(f[2]);
    frames.push({ absPath: abs, function: f[1] ?? '<anonymous>', lineNo: Number(f[3]), inApp: inApp(abs) });
  }
  return { type: m[1], value: m[2], frames: frames.reverse() };
}

function parsePython(stderr: string, prod: Map, inApp: InApp): { type: string; value: string; frames: StandinFrame[] } {
  const lines = stderr.trim().split('\n');
  const start = lines.lastIndexOf('Traceback (most recent call last):');
  assert.ok(start >= 0, `no traceback in:\n${stderr}`);
  const frames: StandinFrame[] = [];
  for (const l of lines.slice(start + 1)) {
    const f = /^\s+File "(.+)", line (\d+), in (.+)$/.exec(l);
    if (f) frames.push({ absPath: prod(f[1]), function: f[3], lineNo: Number(f[2]), inApp: inApp(prod(f[1])) });
  }
  const last = lines[lines.length - 1];
  const m = /^([\w.]+): (.*)$/.exec(last);
  assert.ok(m, `no "Type: message" line ending the traceback:\n${stderr}`);
  return { type: m[1], value: m[2], frames };
}

function parseGo(stderr: string, prod: Map, inApp: InApp): { type: string; value: string; frames: StandinFrame[] } {
  const lines = stderr.split('\n');
  const p = lines.findIndex((l) => l.startsWith('panic: '));
  assert.ok(p >= 0, `no panic in:\n${stderr}`);
  const message = lines[p].slice('panic: '.length).replace(/ \[recovered\]$/, '');
  const frames: StandinFrame[] = [];
  for (let i = p + 1; i < lines.length - 1; i++) {
    const fn = /^([\w./*()-]+)\(.*\)$/.exec(lines[i]);
    const loc = /^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/.exec(lines[i + 1] ?? '');
    if (!fn || !loc) continue;
    const abs = prod(loc[1]);
    frames.push({ absPath: abs, function: fn[1], lineNo: Number(loc[2]), inApp: inApp(abs) });
    i++;
  }
  const runtime = /^runtime error: (.*)$/.exec(message);
  return { type: runtime ? 'runtime.Error' : 'panic', value: runtime ? `runtime error: ${runtime[1]}` : message, frames: frames.reverse() };
}
