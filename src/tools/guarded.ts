/**
 * Turning a tool's refusal into an error result the model can read: a ToolInputError (an
 * argument the tool cannot use: a path outside the workspace, a patch that does not apply) or
 * an ordinary file-system refusal. Nothing is written when a check fails. The arguments' shape
 * is checked before the tool runs (each tool's zod schema, src/agent/tool-args.ts).
 */
import { z } from 'zod';
import type { ToolOutput } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';

export function errorResult(content: string): ToolOutput {
  return { content, isError: true };
}

/** A string argument that must hold more than blanks. */
export function text(description: string): z.ZodString {
  return z
    .string()
    .describe(description)
    .refine((v) => v.trim() !== '', { error: 'is empty' });
}

const FS_REFUSALS = ['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP', 'ENAMETOOLONG', 'EEXIST'];

/**
 * Runs a tool body; a ToolInputError or a file-system refusal (missing file, a folder where a
 * file was meant...) becomes an error result naming `tool` (with the workspace root shown as ".").
 * Aborts and anything unexpected propagate.
 */
export async function guarded(tool: string, workspace: string, body: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof ToolInputError) return errorResult(`${tool}: ${e.message}`);
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string' && FS_REFUSALS.includes(code)) return errorResult(`${tool}: ${(e as Error).message.split(workspace).join('.')}`);
    throw e;
  }
}
