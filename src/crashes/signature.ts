/**
 * A crash's signature: its error type plus where it happened, the top (innermost) frame inside
 * the workspace; the next frames inside it are kept to show (two reports crashing at the same
 * place through different callers are one cause). A frame's path
 * is mapped to the workspace by its longest tail that names a file of the workspace (reports come
 * from users' machines, where the app was installed elsewhere: /usr/lib/node_modules/app/src/x.js
 * is src/x.js here). Frames of the runtime (node:, <anonymous>), of dependencies (a tail that only
 * exists under node_modules, site-packages or the module cache) and that map to nothing are left out.
 */
import type { Crash, Frame } from './parse';

/** Frames kept to show; the first is the signature's. */
export const TOP_FRAMES = 3;

export interface PlacedFrame {
  /** Workspace-relative path. */
  file: string;
  fn: string;
}

export interface Signature {
  type: string;
  frames: PlacedFrame[];
  /** `type @ fn (file)`; the message (numbers blanked) stands in when no frame is in the workspace. */
  text: string;
}

/** `files`: the workspace's files (workspace-relative, forward slashes), outside node_modules and .git. */
export function signatureOf(c: Crash, files: ReadonlySet<string>): Signature {
  const frames: PlacedFrame[] = [];
  for (const f of c.frames) {
    const file = placeInWorkspace(f, files);
    if (!file) continue;
    frames.push({ file, fn: cleanFn(f.fn) || `line ${f.line ?? '?'}` });
    if (frames.length === TOP_FRAMES) break;
  }
  const where = frames.length > 0 ? `${frames[0].fn} (${frames[0].file})` : `"${c.message.replace(/\d+/g, 'N').slice(0, 120)}"`;
  return { type: c.type, frames, text: `${c.type} @ ${where}` };
}

export function placeInWorkspace(f: Frame, files: ReadonlySet<string>): string | undefined {
  let p = f.path.replace(/^file:\/\//, '').replace(/\\/g, '/');
  if (/^(node:|internal\/|<anonymous>|native$)/.test(p) || p === '') return undefined;
  p = p.replace(/^[A-Za-z]:/, '');
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (files.has(tail)) return tail;
  }
  return undefined;
}

/** "Object.parseCsv" -> "parseCsv", "TodoList.markDone" stays (the class says where), "<listcomp>" stays. */
function cleanFn(fn: string): string {
  return fn
    .replace(/^(?:Object|Module|exports)\./, '')
    .replace(/^async /, '')
    .replace(/ \[as \w+\]$/, '')
    .trim();
}
