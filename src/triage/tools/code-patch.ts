/**
 * code_patch {path, patch}: applies a unified diff of one existing file, with exact context.
 * NOT idempotent (a second application may apply the change twice), so a marked call goes
 * to its lookup: "is this patch already in the workspace?"
 *   - the reverse patch applies and the forward one does not: done (the current bytes are
 *     recorded in the ledger, and the result reads as a fresh success would);
 *   - the forward patch applies and the reverse one does not: not done;
 *   - anything else (both, neither, the file is gone): unsure, so it throws and a person decides.
 */
import * as fs from 'node:fs/promises';
import type { LookupAnswer, Tool, ToolContext } from '../../agent/tool';
import { ToolInputError } from '../paths';
import { checkArgs, guarded, reqString, type Args } from './args';
import { applyTo, failingHunk, parseOneFilePatch, reverseOf, type OneFilePatch } from './patch';
import { currentText } from './preview';
import { writeTarget, type WriteTarget } from './write-target';

export function codePatchTool(o: { workspace?: string } = {}): Tool {
  return {
    name: 'code_patch',
    description:
      'Changes an existing file of the workspace by applying a unified diff of that one file: hunks with "@@ -a,b +c,d @@" headers whose context and removed lines match the file exactly ("---"/"+++" lines optional). Create new files with write_file.',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root' },
        patch: { type: 'string', description: 'A unified diff of that file' },
      },
      required: ['path', 'patch'],
      additionalProperties: false,
    },
    writes: (args, workspace) => [writeTarget(workspace, args.path).rel],
    run: (raw, ctx) =>
      guarded('code_patch', ctx.workspace, async () => {
        const { target, parsed } = check(raw, ctx);
        const source = await readExisting(target);
        const after = applyTo(source, parsed.patch);
        if (after === false) {
          const h = failingHunk(source, parsed.patch);
          throw new ToolInputError(
            `the patch does not apply to ${target.rel}: hunk ${h.index} of ${h.of} (${h.header}) does not match the file; ` +
              'its context and removed lines must match exactly. Read the file again and rebuild the patch. Nothing was written.',
          );
        }
        const buf = Buffer.from(after, 'utf8');
        await fs.writeFile(target.abs, buf);
        await ctx.recordWrite(target.rel, buf);
        return { content: patchedText(target.rel, parsed) };
      }),
    async lookup(raw, ctx): Promise<LookupAnswer> {
      let target: WriteTarget;
      let parsed: OneFilePatch;
      try {
        ({ target, parsed } = check(raw, ctx));
      } catch (e) {
        // Arguments the tool refuses: the call wrote nothing, and running it again gives the same error.
        if (e instanceof ToolInputError) return { status: 'not-done' };
        throw e;
      }
      const bytes = await fs.readFile(target.abs).catch(() => undefined);
      if (bytes === undefined) throw new Error(`cannot tell whether the patch of ${target.rel} was applied: the file does not exist now`);
      const source = bytes.toString('utf8');
      const forward = applyTo(source, parsed.patch) !== false;
      const reverse = applyTo(source, reverseOf(parsed.patch)) !== false;
      if (reverse && !forward) {
        await ctx.recordWrite(target.rel, bytes);
        return { status: 'done', output: { content: patchedText(target.rel, parsed) } };
      }
      if (forward && !reverse) return { status: 'not-done' };
      throw new Error(
        `cannot tell whether the patch of ${target.rel} was applied: ${forward ? 'it would apply both forwards and backwards' : 'it applies neither forwards nor backwards'} to the file as it is now`,
      );
    },
    describe(args) {
      const p = typeof args.path === 'string' ? args.path : String(args.path);
      const patch = typeof args.patch === 'string' ? args.patch : '';
      const d: ReturnType<NonNullable<Tool['describe']>> = { title: `Patch ${p}`, detail: patch };
      if (o.workspace) {
        const cur = currentText(o.workspace, args.path);
        if (cur !== undefined) {
          try {
            const after = applyTo(cur.text, parseOneFilePatch(patch).patch);
            if (after !== false) d.diff = { path: cur.rel, before: cur.text, after };
          } catch {
            // a patch that does not parse has no diff to show; the detail still shows it
          }
        }
      }
      return d;
    },
  };
}

function check(raw: Args, ctx: ToolContext): { target: WriteTarget; parsed: OneFilePatch } {
  const args = checkArgs('code_patch', raw, ['path', 'patch']);
  const target = writeTarget(ctx.workspace, reqString(args, 'path'));
  const patch = reqString(args, 'patch');
  return { target, parsed: parseOneFilePatch(patch) };
}

async function readExisting(t: WriteTarget): Promise<string> {
  try {
    return await fs.readFile(t.abs, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolInputError(`"${t.rel}" does not exist; create new files with write_file`);
    throw e;
  }
}

function patchedText(rel: string, p: OneFilePatch): string {
  return `patched ${rel}: +${p.added} -${p.removed} lines`;
}
