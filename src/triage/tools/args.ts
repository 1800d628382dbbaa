/**
 * Checking the arguments a model wrote (it writes bad ones), and turning a bad argument or
 * an ordinary file-system refusal into an error result the model can read. Nothing is
 * written when a check fails.
 */
import type { ToolOutput } from '../../agent/tool';
import { ToolInputError } from '../paths';

export type Args = Record<string, unknown>;

/** The arguments as an object with only the named keys; anything else is a ToolInputError. */
export function checkArgs(tool: string, args: unknown, allowed: readonly string[]): Args {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new ToolInputError(`${tool} takes a JSON object of arguments (${allowed.join(', ') || 'none'})`);
  }
  for (const k of Object.keys(args)) {
    if (!allowed.includes(k)) throw new ToolInputError(`${tool} has no argument "${k}"; it takes ${allowed.length ? allowed.join(', ') : 'no arguments'}`);
  }
  return args as Args;
}

export function reqString(args: Args, name: string, o: { nonEmpty?: boolean; max?: number } = {}): string {
  const v = args[name];
  if (v === undefined) throw new ToolInputError(`argument "${name}" is required`);
  if (typeof v !== 'string') throw new ToolInputError(`argument "${name}" should be a string, found ${kindOf(v)}`);
  if ((o.nonEmpty ?? true) && v.trim() === '') throw new ToolInputError(`argument "${name}" is empty`);
  if (o.max !== undefined && v.length > o.max) throw new ToolInputError(`argument "${name}" is ${v.length} characters long; at most ${o.max} are allowed`);
  return v;
}

export function optString(args: Args, name: string): string | undefined {
  return args[name] === undefined || args[name] === null ? undefined : reqString(args, name);
}

export function optStringArray(args: Args, name: string): string[] | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new ToolInputError(`argument "${name}" should be an array of strings, found ${kindOf(v)}`);
  v.forEach((x, i) => {
    if (typeof x !== 'string') throw new ToolInputError(`argument "${name}[${i}]" should be a string, found ${kindOf(x)}`);
  });
  return v as string[];
}

export function optPositiveInt(args: Args, name: string): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ToolInputError(`argument "${name}" should be a positive whole number, found ${kindOf(v)}${typeof v === 'number' ? ` ${v}` : ''}`);
  return v;
}

export function errorResult(content: string): ToolOutput {
  return { content, isError: true };
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

export function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `${/^[aeiou]/.test(typeof v) ? 'an' : 'a'} ${typeof v}`;
}
