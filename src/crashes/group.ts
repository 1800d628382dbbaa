/**
 * Grouping a folder of raw crash reports (log files, Node stack traces, Python tracebacks, Go
 * panics, JSON error events with a stack) into crash groups by signature (signature.ts).
 * Deterministic: the same folder gives the same groups, in the same order, with the same cause
 * slugs (sorted by signature; a slug taken twice gets -2, -3...). Reports with no crash in them
 * are listed apart, not grouped. What is not a regular file (a named pipe would block the read
 * forever) or is a symlink out of the workspace is not read: it is listed as skipped, with the
 * reason, and grouping goes on (read-report.ts; one stray entry does not stop a folder's triage).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BadInputError } from '../core/errors';
import { resolveInWorkspace, toRel } from '../workspace/paths';
import { walkFiles } from '../workspace/walk';
import { parseCrashes } from './parse';
import { readReport } from './read-report';
import { signatureOf, type PlacedFrame } from './signature';

export interface CrashGroup {
  /** The cause slug: the cause and the regression test's name. */
  cause: string;
  signature: string;
  type: string;
  /** The first report's message. */
  message: string;
  frames: PlacedFrame[];
  /** Workspace-relative paths of the reports (a JSON-lines report with several crashes: "path#line"), sorted. */
  reports: string[];
}

export interface Grouping {
  /** Workspace-relative folder of the reports. */
  folder: string;
  groups: CrashGroup[];
  /** Reports in which no crash was found. */
  ungrouped: string[];
  /** Entries of the folder not read at all (a named pipe, a socket, a symlink out of the workspace), with the reason. */
  skipped: SkippedReport[];
}

export interface SkippedReport {
  path: string;
  reason: string;
}

/** The message kept of a group's first crash (a report's message can be any length). */
const MAX_MESSAGE_CHARS = 500;

export async function groupCrashes(workspace: string, folder: string): Promise<Grouping> {
  let abs: string;
  try {
    abs = resolveInWorkspace(workspace, folder);
  } catch (e) {
    throw new BadInputError(`The crash reports folder ${folder}: ${(e as Error).message}`);
  }
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st?.isDirectory())
    throw new BadInputError(`The crash reports folder ${folder} does not exist in ${workspace} (give a folder relative to the workspace).`);
  const all = await walkFiles(workspace, path.resolve(workspace));
  const files = new Set(all);
  const reports = all.filter((f) => f.startsWith(`${toRel(workspace, abs)}/`) || toRel(workspace, abs) === '.');
  const realWorkspace = await fs.realpath(workspace);
  const bySig = new Map<string, CrashGroup>();
  const ungrouped: string[] = [];
  const skipped: SkippedReport[] = [];
  for (const rel of reports) {
    const read = await readReport(realWorkspace, path.join(workspace, rel));
    if (read.kind === 'skipped') {
      skipped.push({ path: rel, reason: read.reason });
      continue;
    }
    const crashes = read.kind === 'text' ? parseCrashes(read.text) : [];
    if (crashes.length === 0) {
      ungrouped.push(rel);
      continue;
    }
    crashes.forEach((c, k) => {
      const sig = signatureOf(c, files);
      const id = crashes.length > 1 ? `${rel}#${k + 1}` : rel;
      const g = bySig.get(sig.text);
      if (g) g.reports.push(id);
      else
        bySig.set(sig.text, {
          cause: '',
          signature: sig.text,
          type: sig.type,
          message: capped(c.message, MAX_MESSAGE_CHARS),
          frames: sig.frames,
          reports: [id],
        });
    });
  }
  const groups = [...bySig.values()].sort((a, b) => (a.signature < b.signature ? -1 : 1));
  const taken = new Map<string, number>();
  for (const g of groups) {
    g.reports.sort();
    const base = slugOf(g);
    const n = (taken.get(base) ?? 0) + 1;
    taken.set(base, n);
    g.cause = n === 1 ? base : `${base}-${n}`;
  }
  return { folder: toRel(workspace, abs), groups, ungrouped, skipped };
}

/** "parse-duration-type-error": the top frame's function (else its file's name), then the error type, in kebab case. */
export function slugOf(g: Pick<CrashGroup, 'type' | 'frames'>): string {
  const top = g.frames[0];
  const where = top ? (/^line \d+|^<|^\?/.test(top.fn) ? path.posix.basename(top.file).replace(/\.[^.]+$/, '') : top.fn.split('.').pop()!) : '';
  const slug = `${kebab(where)}-${kebab(g.type)}`.replace(/^-+|-+$/g, '').replace(/-+/g, '-');
  return slug.slice(0, 60).replace(/-+$/, '') || 'crash';
}

function kebab(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase();
}

function capped(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}
