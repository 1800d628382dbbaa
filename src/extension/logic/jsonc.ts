/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as VS Code reads its own files
 * (settings.json, mcp.json): the same text with the comments and trailing commas blanked out, for
 * JSON.parse. Strings are left as they are; positions stay the same (blanks replace what goes).
 */
export function stripJsonComments(text: string): string {
  const out = text.split('');
  let i = 0;
  /** Index of the last comma outside strings and comments not yet followed by a value. */
  let comma = -1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      comma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') out[i++] = ' ';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== '\n') out[i] = ' ';
    } else {
      if (c === ',') comma = i;
      else if (!/\s/.test(c)) {
        if ((c === '}' || c === ']') && comma >= 0) out[comma] = ' ';
        comma = -1;
      }
      i++;
    }
  }
  return out.join('');
}
