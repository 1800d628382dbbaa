/**
 * File globs as ripgrep's --glob reads them, for the fallback search and list_files: a glob
 * without "/" matches a file's name at any depth ("*.rs"), one with "/" matches the path from
 * the folder searched ("src/**\/*.ts"); "*" and "?" stay inside one name, "**" crosses folders,
 * "{a,b}" is either, "[abc]" a class. A leading "!" is not supported (say what to exclude by
 * giving a path instead).
 */
import { ToolInputError } from './paths';

export interface Glob {
  readonly text: string;
  /** True when the workspace-relative path `rel` (below the folder searched, `base`) matches. */
  matches(rel: string, base: string): boolean;
}

export function compileGlob(text: string): Glob {
  if (text.startsWith('!')) throw new ToolInputError(`glob "${text}" starts with "!"; exclusions are not supported, give the files to include (e.g. "*.ts")`);
  const anchored = text.replace(/^\/+/, '').replace(/\/+$/, '');
  if (anchored === '') throw new ToolInputError(`glob "${text}" names no file; e.g. "*.ts" or "src/**/*.ts"`);
  const re = new RegExp(`^${translate(anchored, text)}$`);
  const byName = !anchored.includes('/');
  return {
    text,
    matches(rel, base) {
      if (byName) return re.test(rel.slice(rel.lastIndexOf('/') + 1));
      const below = base === '.' || base === '' ? rel : rel.startsWith(`${base}/`) ? rel.slice(base.length + 1) : rel;
      return re.test(below) || re.test(rel);
    },
  };
}

function translate(g: string, original: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        const slashAfter = g[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = g.indexOf(']', i + 2);
      if (end < 0) throw new ToolInputError(`glob "${original}" has a "[" without its "]"`);
      let cls = g.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
      out += `[${cls}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '\\' && i + 1 < g.length) out += escape(g[++i]);
    else out += escape(c);
  }
  if (braces > 0) throw new ToolInputError(`glob "${original}" has a "{" without its "}"`);
  return out;
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
