'use strict';

/**
 * Parses an INI file: `[section]` headers, `key = value` pairs, `;` and `#` comments.
 * Dotted section names nest: `[server.tls]` becomes `{ server: { tls: {...} } }`.
 * Keys before the first section belong to the top level.
 */
function parseIni(text) {
  const out = {};
  let current;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const section = /^\[([^\]]+)\]$/.exec(line);
    if (section) {
      current = section[1]
        .split('.')
        .map((s) => s.trim())
        .reduce((node, name) => (node[name] ??= {}), out);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq === -1) throw new SyntaxError(`ini: expected "key = value", got "${line}"`);
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    current[key] = value;
  }
  return out;
}

module.exports = { parseIni };
