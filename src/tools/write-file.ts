/**
 * write_file {path, content}: creates or replaces a file of the workspace. Idempotent: the
 * same content twice has the same effect as once, so the ladder may simply run it again.
 * Every write is recorded in the run's ledger (SHA-256 and content) through ctx.recordWrite.
 */
import { createHash } from 'node:crypto';
import type { CallDescription, Tool } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { currentText } from './preview';
import { writeTarget } from './write-target';
import { clip, str, withPath, type ToolView } from './view';
import { writeFileDurable } from '../disk/durable-write';

export const WRITE_CAP = 1_000_000;

/** A write: "Write <path>", the new content. */
export const writeFileView: ToolView = {
  icon: 'new-file',
  writesPath: true,
  call(a) {
    const p = str(a.path);
    return withPath(a, { title: `Write ${p ?? '?'}`, args: [{ kind: 'code', text: clip(str(a.content) ?? ''), label: p ?? '' }] });
  },
};

const WRITE_ARGS = z.strictObject({
  path: text('File path relative to the workspace root'),
  content: z.string().describe('The complete new content of the file'),
});

/** `workspace`: for describe()'s diff; `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function writeFileTool(o: { workspace?: string; hidden?: readonly string[] } = {}): Tool<{ path: string; content: string }> {
  return {
    name: 'write_file',
    description:
      'Creates a file of the workspace, or replaces its whole content (parent folders are created). Use code_patch to change part of an existing file.',
    args: WRITE_ARGS,
    idempotent: true,
    writes: (args, workspace) => [writeTarget(workspace, args.path, o.hidden).rel],
    run: (args, ctx) =>
      guarded('write_file', ctx.workspace, async () => {
        const { abs, rel } = writeTarget(ctx.workspace, args.path, o.hidden);
        const buf = Buffer.from(args.content, 'utf8');
        if (buf.length > WRITE_CAP) throw new ToolInputError(`content is ${buf.length} bytes; write_file takes at most ${WRITE_CAP}`);
        await writeFileDurable(abs, buf, { top: ctx.workspace }); // durable before its hash goes into the ledger
        await ctx.recordWrite(rel, buf);
        return { content: wroteText(rel, buf) };
      }),
    describe(args) {
      const content = args.content;
      const d: CallDescription = { title: writeFileView.call(args).title, detail: content.length > 4000 ? `${content.slice(0, 4000)}\n...` : content };
      if (o.workspace) {
        const before = currentText(o.workspace, args.path, o.hidden);
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
