/**
 * Reading a crash out of a report's text: a Node (V8) stack trace, a Python traceback, a Go
 * panic, or a JSON error event (one object, or JSON lines) holding a stack. The frames come
 * innermost first, as written (a Python traceback is reversed).
 */

export interface Frame {
  /** The path as the report wrote it (an installed path, a URL...). */
  path: string;
  /** The function, or "" when the frame names none. */
  fn: string;
  line?: number;
}

export interface Crash {
  /** TypeError, KeyError, "panic"... */
  type: string;
  message: string;
  frames: Frame[];
  /** The report's own language. */
  kind: 'node' | 'python' | 'go';
}

const JS_HEAD = /^\s*(?:Uncaught\s+)?([A-Z][\w$]*(?:Error|Exception)|Error)(?: \[[A-Z_]+\])?(?::\s?(.*))?$/;
const JS_FRAME = /^\s*at (?:async )?(?:(.+?) \((.+?)\)|(.+?))\s*$/;

/** Every crash in a report's text (a JSON-lines file may hold several; other formats: the first). */
export function parseCrashes(text: string): Crash[] {
  const events = jsonEvents(text);
  if (events !== undefined) return events;
  const one = python(text) ?? goPanic(text) ?? node(text);
  return one ? [one] : [];
}

/** A V8 stack: the error line, then "    at ..." lines. */
export function node(text: string): Crash | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const head = JS_HEAD.exec(lines[i]);
    if (!head || !/^\s*at /.test(lines[i + 1] ?? '')) continue;
    const frames: Frame[] = [];
    for (let j = i + 1; j < lines.length && /^\s*at /.test(lines[j]); j++) {
      const m = JS_FRAME.exec(lines[j]);
      if (!m) continue;
      const loc = m[2] ?? m[3] ?? '';
      const fn = m[2] !== undefined ? m[1] : '';
      const at = /^(.*?):(\d+):\d+$/.exec(loc);
      frames.push(at ? { path: at[1], fn, line: Number(at[2]) } : { path: loc, fn });
    }
    return { type: head[1], message: (head[2] ?? '').trim(), frames, kind: 'node' };
  }
  return undefined;
}

/** "Traceback (most recent call last):", File lines, then "Type: message"; frames reversed (innermost first). */
export function python(text: string): Crash | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*Traceback \(most recent call last\):/.test(l));
  if (start < 0) return undefined;
  const frames: Frame[] = [];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const f = /^\s*File "(.+?)", line (\d+)(?:, in (.+))?$/.exec(lines[i]);
    if (f) {
      frames.push({ path: f[1], fn: f[3] ?? '', line: Number(f[2]) });
      continue;
    }
    if (/^\s{2,}\S/.test(lines[i]) || /^\s*[\^~]+\s*$/.test(lines[i])) continue; // the source line, carets
    break;
  }
  const last = /^([A-Za-z_][\w.]*)(?::\s?(.*))?$/.exec(lines[i] ?? '');
  if (!last) return undefined;
  return { type: last[1].split('.').pop()!, message: (last[2] ?? '').trim(), frames: frames.reverse(), kind: 'python' };
}

/** "panic: message", then the panicking goroutine's "pkg.Func(args)" / "\tpath:line +0x.." pairs. */
export function goPanic(text: string): Crash | undefined {
  const lines = text.split(/\r?\n/);
  const p = lines.findIndex((l) => /^panic: /.test(l));
  if (p < 0) return undefined;
  const message = lines[p]
    .slice('panic: '.length)
    .replace(/ \[recovered\]$/, '')
    .trim();
  const g = lines.findIndex((l, k) => k > p && /^goroutine \d+ \[/.test(l));
  const frames: Frame[] = [];
  if (g >= 0) {
    for (let i = g + 1; i + 1 < lines.length; i += 2) {
      const call = /^(\S.*)\(([^()]*)\)$/.exec(lines[i]);
      const at = /^\t(.+?):(\d+)(?: \+0x[0-9a-f]+)?$/.exec(lines[i + 1]);
      if (!call || !at) break;
      const fn = call[1]
        .split('/')
        .pop()!
        .replace(/^[^.]+\./, '');
      frames.push({ path: at[1], fn, line: Number(at[2]) });
    }
  }
  const type = /^runtime error: /.test(message) ? 'runtime error' : 'panic';
  return { type, message, frames, kind: 'go' };
}

/** A JSON error event (a whole-file object, or one per line): the first string "stack" found in it, read as a V8 stack. undefined: not JSON. */
function jsonEvents(text: string): Crash[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  const objects: unknown[] = [];
  try {
    objects.push(JSON.parse(trimmed));
  } catch {
    for (const line of trimmed.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      try {
        objects.push(JSON.parse(line));
      } catch {
        return undefined;
      }
    }
  }
  const out: Crash[] = [];
  for (const o of objects) {
    const err = findStack(o, 0);
    if (!err) continue;
    const c = node(err.stack) ?? python(err.stack) ?? goPanic(err.stack);
    if (c) out.push({ ...c, ...(err.type ? { type: err.type } : {}), ...(err.message !== undefined && c.message === '' ? { message: err.message } : {}) });
  }
  return out;
}

function findStack(v: unknown, depth: number): { stack: string; type?: string; message?: string } | undefined {
  if (!v || typeof v !== 'object' || depth > 4) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.stack === 'string') {
    const type = typeof o.type === 'string' ? o.type : typeof o.name === 'string' ? o.name : undefined;
    return { stack: o.stack, ...(type ? { type } : {}), ...(typeof o.message === 'string' ? { message: o.message } : {}) };
  }
  for (const key of Object.keys(o).sort()) {
    const found = findStack(o[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
