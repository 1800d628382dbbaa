/**
 * code_patch {path, patch}: applies a unified diff of one existing file, with exact context,
 * replacing the file atomically and durably (durable-write.ts).
 * NOT idempotent (a second application may apply the change twice), so a marked call goes
 * to its lookup: "is this patch already in the workspace?"
 *   - the reverse patch applies and the forward one does not: done (the current bytes are
 *     made durable and recorded in the ledger, and the result reads as a fresh success would);
 *   - the forward patch applies and the reverse one does not: not done;
 *   - anything else (both, neither, the file is gone): unsure, so it throws and a person decides.
 */
import type { CallDescription, LookupAnswer, Tool, ToolContext } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';
import { z } from 'zod';
import { guarded, text } from './guarded';
import { applyTo, failingHunk, parseOneFilePatch, reverseOf, type OneFilePatch } from './patch';
import { currentText } from './preview';
import { readRegularFile } from './regular-file';
import { writeTarget, type WriteTarget } from './write-target';
import { clip, str, withPath, type ToolView } from './view';
import { syncFileDurable, writeFileDurable } from '../disk/durable-write';

const PatchArgs = z.strictObject({
  path: text('File path relative to the workspace root'),
  patch: text('A unified diff of that file'),
});
type PatchArgs = z.infer<typeof PatchArgs>;

/** A patch call: "Patch <path>", its patch as a diff, shown unfolded. */
export const codePatchView: ToolView = {
  icon: 'diff',
  unfolded: true,
  writesPath: true,
  call(a) {
    const p = str(a.path);
    return withPath(a, { title: `Patch ${p ?? '?'}`, args: [{ kind: 'diff', path: p ?? '', text: clip(str(a.patch) ?? '') }] });
  },
};

/** `workspace`: for describe()'s diff; `hidden`: the folders the tools treat as outside the workspace (the run's state folder). */
export function codePatchTool(o: { workspace?: string; hidden?: readonly string[] } = {}): Tool<PatchArgs> {
  return {
    name: 'code_patch',
    description:
      'Changes an existing file of the workspace by applying a unified diff of that one file: hunks with "@@ -a,b +c,d @@" headers whose context and removed lines match the file exactly ("---"/"+++" lines optional). Create new files with write_file.',
    args: PatchArgs,
    writes: (args, workspace) => [writeTarget(workspace, args.path, o.hidden).rel],
    run: (args, ctx) =>
      guarded('code_patch', ctx.workspace, async () => {
        const { target, parsed } = check(args, ctx, o.hidden);
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
        await writeFileDurable(target.abs, buf, { top: ctx.workspace }); // durable before its hash goes into the ledger
        await ctx.recordWrite(target.rel, buf);
        return { content: patchedText(target.rel, parsed) };
      }),
    async lookup(args, ctx): Promise<LookupAnswer> {
      let target: WriteTarget;
      let parsed: OneFilePatch;
      try {
        ({ target, parsed } = check(args, ctx, o.hidden));
      } catch (e) {
        // Arguments the tool refuses: the call wrote nothing, and running it again gives the same error.
        if (e instanceof ToolInputError) return { status: 'not-done' };
        throw e;
      }
      const bytes = await readRegularFile(target.abs, target.rel).then(
        (h) => h.bytes,
        (e: unknown) => {
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
          throw e;
        },
      );
      if (bytes === undefined) throw new Error(`cannot tell whether the patch of ${target.rel} was applied: the file does not exist now`);
      const source = bytes.toString('utf8');
      const forward = applyTo(source, parsed.patch) !== false;
      const reverse = applyTo(source, reverseOf(parsed.patch)) !== false;
      if (reverse && !forward) {
        // The patched bytes may be what a killed process left in the page cache: durable before the ledger vouches for them.
        await syncFileDurable(target.abs, { top: ctx.workspace, always: true });
        await ctx.recordWrite(target.rel, bytes);
        return { status: 'done', output: { content: patchedText(target.rel, parsed) } };
      }
      if (forward && !reverse) return { status: 'not-done' };
      throw new Error(
        `cannot tell whether the patch of ${target.rel} was applied: ${forward ? 'it would apply both forwards and backwards' : 'it applies neither forwards nor backwards'} to the file as it is now`,
      );
    },
    describe(args) {
      const patch = args.patch;
      const d: CallDescription = { title: codePatchView.call(args).title, detail: patch };
      if (o.workspace) {
        const cur = currentText(o.workspace, args.path, o.hidden);
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

function check(args: PatchArgs, ctx: ToolContext, hidden: readonly string[] | undefined): { target: WriteTarget; parsed: OneFilePatch } {
  return { target: writeTarget(ctx.workspace, args.path, hidden), parsed: parseOneFilePatch(args.patch) };
}

/** The target's text; only a regular file is read (a named pipe is refused, never waited on). */
async function readExisting(t: WriteTarget): Promise<string> {
  try {
    return (await readRegularFile(t.abs, t.rel)).bytes.toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolInputError(`"${t.rel}" does not exist; create new files with write_file`);
    throw e;
  }
}

function patchedText(rel: string, p: OneFilePatch): string {
  return `patched ${rel}: +${p.added} -${p.removed} lines`;
}
