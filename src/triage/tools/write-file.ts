/**
 * write_file {path, content}: creates or replaces a file of the workspace. Idempotent: the
 * same content twice has the same effect as once, so the ladder may simply run it again.
 * Every write is recorded in the run's ledger (SHA-256 and content) through ctx.recordWrite.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Tool } from '../../agent/tool';
import { ToolInputError } from '../paths';
import { checkArgs, guarded, reqString } from './args';
import { currentText } from './preview';
import { writeTarget } from './write-target';

export const WRITE_CAP = 1_000_000;

export function writeFileTool(o: { workspace?: string } = {}): Tool {
  return {
    name: 'write_file',
    description: 'Creates a file of the workspace, or replaces its whole content (parent folders are created). Use code_patch to change part of an existing file.',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root' },
        content: { type: 'string', description: 'The complete new content of the file' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    idempotent: true,
    writes: (args, workspace) => [writeTarget(workspace, args.path).rel],
    run: (raw, ctx) =>
      guarded('write_file', ctx.workspace, async () => {
        const args = checkArgs('write_file', raw, ['path', 'content']);
        const { abs, rel } = writeTarget(ctx.workspace, reqString(args, 'path'));
        const content = reqString(args, 'content', { nonEmpty: false });
        const buf = Buffer.from(content, 'utf8');
        if (buf.length > WRITE_CAP) throw new ToolInputError(`content is ${buf.length} bytes; write_file takes at most ${WRITE_CAP}`);
        await fs.mkdir(path.dirname(abs), { recursive: true });
        await fs.writeFile(abs, buf);
        await ctx.recordWrite(rel, buf);
        return { content: wroteText(rel, buf) };
      }),
    describe(args) {
      const p = typeof args.path === 'string' ? args.path : String(args.path);
      const content = typeof args.content === 'string' ? args.content : '';
      const d: ReturnType<NonNullable<Tool['describe']>> = { title: `Write ${p}`, detail: content.length > 4000 ? `${content.slice(0, 4000)}\n...` : content };
      if (o.workspace) {
        const before = currentText(o.workspace, args.path);
        if (before !== undefined) d.diff = { path: before.rel, before: before.text, after: content };
      }
      return d;
    },
  };
}

export function wroteText(rel: string, buf: Buffer): string {
  const sha = createHash('sha256').update(buf).digest('hex');
  return `wrote ${rel} (${buf.length} bytes, sha256 ${sha.slice(0, 12)})`;
}
