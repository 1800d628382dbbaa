/**
 * zod, as every saved format and every tool's arguments use it: parsing that turns a failure
 * into one message naming the first bad field ("field "$.lastReply.calls[0].args" should be a
 * string, found object"), and a record type that keeps any key (a file path or call ID such as
 * "__proto__" stays an ordinary entry, where zod's own records drop it).
 */
import { z } from 'zod';

/** A value that is not what its schema says; `message` names the field and what was wrong. */
export class SchemaError extends Error {
  constructor(
    message: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(message);
    this.name = 'SchemaError';
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  return /^[aeiou]/.test(typeof v) ? `an ${typeof v}` : `a ${typeof v}`;
}

/** "$.a.b[0]["odd key"]" for a path under `root`. */
export function pathText(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][\w$]*$/.test(p)) out += root === '' && out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const p of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, p)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  int: 'a whole number',
  integer: 'a whole number',
};

export interface IssueWording {
  /** What a key is called: "field" (saved formats, default) or "argument" (a tool's arguments). */
  noun?: string;
}

function sizeOf(v: unknown): string | undefined {
  if (typeof v === 'string') return `${v.length} characters long`;
  if (Array.isArray(v)) return `${v.length} items long`;
  return undefined;
}

/**
 * One issue as a sentence naming the field ("it" for the whole value under an empty root):
 * `field "$.turns" should be a number, found string`, `argument "cause" is required`.
 */
export function issueText(issue: z.core.$ZodIssue, raw: unknown, root = '$', wording: IssueWording = {}): string {
  const noun = wording.noun ?? 'field';
  const path = pathText(root, issue.path);
  const subject = path === '' ? 'it' : `${noun} "${path}"`;
  const found = valueAt(raw, issue.path);
  const shown = JSON.stringify(found) ?? 'nothing';
  switch (issue.code) {
    case 'invalid_type':
      if (found === undefined && issue.path.length > 0) return `${subject} is required`;
      return `${subject} should be ${ARTICLE[issue.expected] ?? issue.expected}, found ${kindOf(found)}`;
    case 'invalid_value':
      return `${subject} should be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, found ${shown}`;
    case 'invalid_union':
      return `${subject} is none of the forms it may take${found !== undefined ? ` (found ${kindOf(found)})` : ''}`;
    case 'too_small':
    case 'too_big': {
      const size = sizeOf(found);
      const bound =
        issue.code === 'too_big'
          ? `${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`
          : `${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}`;
      if (size) return `${subject} is ${size}; ${bound}`;
      return `${subject} should be ${bound}, found ${shown}`;
    }
    case 'invalid_format':
    case 'not_multiple_of':
      return `${subject} ${issue.message.replace(/^Invalid input: /, '')}, found ${shown}`;
    case 'unrecognized_keys': {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      const where = path === '' || path === root ? '' : ` in ${subject}`;
      return `no ${noun} ${keys}${where}`;
    }
    default:
      if (issue.message.startsWith('should ')) return `${subject} ${issue.message}, found ${kindOf(found)}`;
      if (/^(is|has|holds|cannot|spans) /.test(issue.message)) return `${subject} ${issue.message}`;
      return `${subject}: ${issue.message}`;
  }
}

/** Parses `raw` with `schema`; a failure is a SchemaError naming the first bad field under `root`. */
export function parseSchema<S extends z.ZodType>(schema: S, raw: unknown, root = '$', wording: IssueWording = {}): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw new SchemaError(issueText(r.error.issues[0], raw, root, wording), r.error.issues);
}

/** defineProperty, not assignment: a key such as "__proto__" stays an ordinary entry. */
export function defineEntry(o: object, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** An object of entries that each match `item`, keeping every key as an own property (zod's z.record drops "__proto__"). */
export function keyedRecord<T extends z.ZodType>(item: T) {
  return z
    .custom<Record<string, z.input<T>>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'should be an object' })
    .transform((o, ctx) => {
      const out: Record<string, z.output<T>> = {};
      for (const k of Object.keys(o)) {
        const r = item.safeParse(o[k]);
        if (r.success) defineEntry(out, k, r.data);
        else for (const issue of r.error.issues) ctx.issues.push({ ...issue, path: [k, ...issue.path] } as never);
      }
      return out;
    });
}
