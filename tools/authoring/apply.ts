/**
 * Applies a script's changes directly, without the loop or the tools: writes, patches
 * (with jsdiff, exact context), and the issues it would file, numbered from 1. For
 * checking a script quickly and for building a finished run in tests of the checks.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { applyPatch } from 'diff';
import type { FileRecord } from '../../src/store/state';
import type { ScriptStep } from './script';

export interface AppliedScript {
  /** A ledger of what the script wrote: path -> record, as the loop would keep it. */
  files: Record<string, FileRecord>;
  issues: { number: number; title: string; body: string; cause: string }[];
  /** The final answer's text. */
  answer: string;
}

export async function applyScript(steps: ScriptStep[], workspace: string): Promise<AppliedScript> {
  const files: Record<string, FileRecord> = {};
  const issues: AppliedScript['issues'] = [];
  let answer = '';
  let n = 0;
  for (const step of steps) {
    if (step.calls.length === 0) answer = step.text ?? '';
    for (const c of step.calls) {
      const callId = `apply_${++n}`;
      const a = c.args as Record<string, string>;
      if (c.name === 'write_file' || c.name === 'code_patch') {
        const abs = path.join(workspace, ...a.path.split('/'));
        let content = a.content;
        if (c.name === 'code_patch') {
          const out = applyPatch(await fs.readFile(abs, 'utf8'), a.patch);
          if (out === false) throw new Error(`the script's patch of ${a.path} does not apply`);
          content = out;
        }
        await fs.mkdir(path.dirname(abs), { recursive: true });
        await fs.writeFile(abs, content);
        const buf = Buffer.from(content);
        files[a.path] = { sha256: createHash('sha256').update(buf).digest('hex'), size: buf.length, callId, writtenAt: new Date(0).toISOString() };
      } else if (c.name === 'issue_file') {
        issues.push({ number: issues.length + 1, title: a.title, body: a.body, cause: a.cause });
      }
    }
  }
  return { files, issues, answer };
}
